// The memo: MEMOIZE stores at len(memo), the number of distinct indices stored (CPython's
// load_memoize), wherever PUT put earlier entries; and memory follows the entries stored, never
// an index the file names: one LONG_BINPUT at 2**31 then a run of MEMOIZE costs what the run
// alone costs (it cost a hash-map entry per MEMOIZE, 4.5 times the memory, before).
#include <gtest/gtest.h>

#include <string>

#include "chunked.hpp"
#include "pickle_builder.hpp"
#include "stream_check.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/pickle.hpp"

namespace {

using namespace tgtest;

TEST(PickleMemo, MemoizeStoresAtTheNumberOfEntries) {
  // PUT 1000, then MEMOIZE: len(memo) is 1, so index 1; index 0 was never stored.
  const auto head = [] { return PickleBuilder().proto(4).str("os").put(1000).str("system").memoize(); };
  EXPECT_EQ(errors_of(check_pickle(head().op('0').op('0').get(1000).get(1).stack_global().stop().bytes())),
            "PK.dangerous-global");
  EXPECT_EQ(errors_of(check_pickle(head().get(0).stop().bytes())), "PK.memo-missing");
}

TEST(PickleMemo, AHashedEntryTheDenseRunReachesKeepsItsValue) {
  // "os" at 100 (far from the empty run: hashed), 60 MEMOIZE (indices 1..60), then PUT 101:
  // the run grows over 61..100 and takes "os" from the hash map.
  PickleBuilder b;
  b.proto(4).str("os").put(100).op('N');
  for (int i = 0; i < 60; ++i) b.memoize();
  b.str("system").put(101).op('0').op('0').get(100).get(101).stack_global().stop();
  const auto r = check_pickle(b.bytes());
  EXPECT_EQ(errors_of(r), "PK.dangerous-global");
  EXPECT_NE(message_of(r, "PK.dangerous-global").find("os.system"), std::string::npos);
}

std::string memoize_run(bool far_index_first, int count) {
  PickleBuilder b;
  b.proto(4).op('N');
  if (far_index_first) b.put(0x80000000u);
  for (int i = 0; i < count; ++i) b.memoize();
  return b.stop().bytes();
}

// Peak budget the scan charged (what the scanner accounts for its memory).
std::uint64_t peak_charge(const std::string& bytes) {
  tensorgate::CountingBudget budget(1ull << 30);
  const auto r = feed_split([&] { return tensorgate::make_pickle_validator({}, &budget); }, bytes, {});
  EXPECT_FALSE(r.aborted);
  EXPECT_TRUE(r.valid);
  EXPECT_EQ(errors_of(r) + warnings_of(r), "");
  return budget.peak();
}

TEST(PickleMemo, AFarIndexDoesNotMakeTheRunCostMore) {
  constexpr int kCount = 1 << 20;
  const std::uint64_t dense = peak_charge(memoize_run(false, kCount));
  const std::uint64_t sparse = peak_charge(memoize_run(true, kCount));
  // 16 bytes a value, in blocks, charged a mebibyte at a time.
  EXPECT_LE(dense, 20ull << 20);
  EXPECT_LE(sparse, dense + (1ull << 20)) << "dense " << dense;
}

TEST(PickleMemo, FarIndicesAreBoundedByTheEntryLimit) {
  tensorgate::Limits limits;
  limits.pickle.max_memo = 1000;
  PickleBuilder b;
  b.proto(4).op('N');
  for (std::uint32_t i = 0; i < 2000; ++i) b.put(0x10000000u + 7919u * i);
  const auto r = tensorgate::validate_pickle(b.stop().bytes(), limits);
  ASSERT_TRUE(r.aborted);
  EXPECT_EQ(r.aborted->limit, "pickle-memo");
}

}  // namespace
