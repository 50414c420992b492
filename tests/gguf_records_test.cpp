// GgufRecordList (tensorgate/gguf.hpp): records across the small first chunk and the 2 MiB
// chunks after it keep their place and order, and stay where they were put.
#include <gtest/gtest.h>

#include <cstdint>

#include "tensorgate/gguf.hpp"

namespace {

using tensorgate::GgufRecordList;
using tensorgate::GgufTensorRecord;

TEST(GgufRecords, IndexAndOrderHoldAcrossEveryKindOfChunk) {
  GgufRecordList list;
  const std::size_t n = GgufRecordList::kFirst + 2 * GgufRecordList::kBig + 3;
  const GgufTensorRecord* first = nullptr;
  for (std::size_t i = 0; i < n; ++i) {
    GgufTensorRecord r;
    r.offset = i;
    r.n_dims = static_cast<std::uint8_t>(i % 5);
    list.push_back(r);
    if (i == 0) first = &list[0];
  }
  ASSERT_EQ(list.size(), n);
  EXPECT_EQ(&list[0], first);  // never moved
  for (const std::size_t i : {std::size_t{0}, GgufRecordList::kFirst - 1, GgufRecordList::kFirst,
                              GgufRecordList::kFirst + GgufRecordList::kBig - 1, GgufRecordList::kFirst + GgufRecordList::kBig, n - 1}) {
    EXPECT_EQ(list[i].offset, i);
    EXPECT_EQ(list[i].n_dims, i % 5);
  }
  std::uint64_t expected = 0;
  for (const GgufTensorRecord& r : list) EXPECT_EQ(r.offset, expected++);
  EXPECT_EQ(expected, n);
}

}  // namespace
