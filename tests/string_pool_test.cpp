// A string pool gives back exactly the strings it was built from, empty ones included, and the
// tables built on pools (the rule catalogue, the pickle opcodes) still read as before.
#include <gtest/gtest.h>

#include <array>
#include <set>
#include <string_view>

#include "common/string_pool.hpp"
#include "tensorgate/rules.hpp"

namespace {

using namespace std::string_view_literals;

constexpr auto kPool = tensorgate::detail::make_string_pool([] {
  return std::array{"first"sv, ""sv, "x"sv, "a longer string, with a comma"sv, ""sv};
});

TEST(StringPool, GivesBackEveryStringInOrder) {
  static_assert(kPool.size() == 5);
  static_assert(kPool[0] == "first" && kPool[3] == "a longer string, with a comma");  // at compile time too
  EXPECT_EQ(kPool[0], "first");
  EXPECT_EQ(kPool[1], "");
  EXPECT_EQ(kPool[2], "x");
  EXPECT_EQ(kPool[3], "a longer string, with a comma");
  EXPECT_EQ(kPool[4], "");
  EXPECT_EQ(kPool.chars.size(), 5u + 1u + 29u);  // the characters alone, no separators
}

// The catalogue, read back through rule_info and all_rules: every rule once, in enum order, its
// family the id's part before the dot, its text not empty.
TEST(StringPool, RuleCatalogueReadsBack) {
  std::set<std::string_view> ids;
  std::size_t i = 0;
  for (const tensorgate::RuleInfo& r : tensorgate::all_rules()) {
    EXPECT_EQ(static_cast<std::size_t>(r.rule), i++);
    EXPECT_TRUE(ids.insert(r.id).second) << r.id;
    EXPECT_EQ(r.family, r.id.substr(0, r.id.find('.'))) << r.id;
    EXPECT_FALSE(r.title.empty()) << r.id;
    EXPECT_FALSE(r.help.empty()) << r.id;
  }
  EXPECT_EQ(i, tensorgate::kRuleCount);
  EXPECT_EQ(tensorgate::rule_info(tensorgate::Rule::st4_dtype).id, "ST4.dtype");
  EXPECT_EQ(tensorgate::rule_info(tensorgate::Rule::st4_dtype).family, "ST4");
}

}  // namespace
