// The keyed string hash reads every byte of every length, and the duplicate-name finder built on
// it reports exactly the later records of a name (core/src/common, internals).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/duplicate_names.hpp"
#include "common/seeded_hash.hpp"

namespace {

using tensorgate::detail::DuplicateNames;
using tensorgate::detail::seeded_hash;

// Changing any one byte changes the hash, at every length across the short-string branches and
// the 16-byte loop with its overlapping last read. (A real collision here would be a 2^-64 event.)
TEST(SeededHash, EveryByteOfEveryLengthCounts) {
  for (std::size_t length = 1; length <= 70; ++length) {
    std::string s(length, 'a');
    for (std::size_t i = 0; i < length; ++i) s[i] = static_cast<char>('a' + i % 26);
    const std::size_t base = seeded_hash(s);
    for (std::size_t i = 0; i < length; ++i) {
      std::string t = s;
      t[i] ^= 0x01;
      EXPECT_NE(seeded_hash(t), base) << "length " << length << ", byte " << i;
    }
  }
}

TEST(SeededHash, TheLengthCounts) {
  const std::string zeros(40, '\0');
  for (std::size_t n = 0; n < zeros.size(); ++n)
    EXPECT_NE(seeded_hash(std::string_view(zeros).substr(0, n)), seeded_hash(std::string_view(zeros).substr(0, n + 1)))
        << n;
}

// Names, every 7th from the 100th repeating the name 100 records earlier: exactly those records
// are later duplicates, in ascending order.
void expect_exactly_the_later_records(std::uint32_t count) {
  std::vector<std::string> names;
  std::vector<std::uint32_t> expected;
  for (std::uint32_t i = 0; i < count; ++i) {
    if (i >= 100 && i % 7 == 0) {
      names.push_back(names[i - 100]);  // an original: (i - 100) % 7 == 5
      expected.push_back(i);
    } else {
      names.push_back("model.layers." + std::to_string(i) + ".mlp.down_proj.weight");
    }
  }
  DuplicateNames finder(names.size());
  for (std::uint32_t i = 0; i < names.size(); ++i) finder.add(i, names[i]);
  const auto found = finder.later_duplicates([&](std::uint32_t i) { return std::string_view(names[i]); });
  EXPECT_EQ(found, expected) << count << " names";
}

TEST(DuplicateNamesTest, ReportsExactlyTheLaterRecordsOfAName) {
  expect_exactly_the_later_records(5'000);
  expect_exactly_the_later_records(500);
}

}  // namespace
