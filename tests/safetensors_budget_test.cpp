// The shared memory budget covers the table a header turns into, not only the header's bytes:
// tiny entries and long shapes cost several times their text, and must not escape the budget.
#include <gtest/gtest.h>

#include <string>

#include "st_builder.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/validator.hpp"

namespace {

using namespace tgtest;

class CountingBudget final : public tensorgate::MemoryBudget {
 public:
  explicit CountingBudget(std::size_t capacity) : capacity_(capacity) {}
  bool try_acquire(std::size_t bytes) override {
    if (held + bytes > capacity_) return false;
    held += bytes;
    peak = std::max(peak, held);
    return true;
  }
  void release(std::size_t bytes) override { held -= bytes; }
  std::size_t held = 0, peak = 0;

 private:
  std::size_t capacity_;
};

tensorgate::Report check_with(CountingBudget& budget, const std::string& file) {
  auto v = tensorgate::make_safetensors_validator({}, &budget);
  v->set_total_size(file.size());
  v->feed(file);
  return v->finish();
}

// 200,000 entries of 7 bytes ("kN":0,) are a 1.6 MB header and a 13 MB table.
std::string tiny_entries(int n) {
  std::string h = "{";
  for (int i = 0; i < n; ++i) h += (i ? ",\"k" : "\"k") + std::to_string(i) + "\":0";
  return h + "}";
}

TEST(SafetensorsBudget, TinyEntriesCannotOutgrowTheBudget) {
  const std::string file = st_file(tiny_entries(200'000));
  CountingBudget budget(file.size() + (4u << 20));
  {
    const auto r = check_with(budget, file);
    ASSERT_TRUE(r.aborted);
    EXPECT_EQ(r.aborted->limit, "header-memory-budget");
    EXPECT_FALSE(r.valid);
    EXPECT_LE(budget.peak, file.size() + (4u << 20));
  }
  EXPECT_EQ(budget.held, 0u);  // header and table charges both released
}

TEST(SafetensorsBudget, ALongShapeCannotOutgrowTheBudget) {
  std::string dims = "1";
  for (int i = 0; i < 600'000; ++i) dims += ",1";
  const std::string file = st_file(R"({"w":{"dtype":"U8","shape":[)" + dims + R"(],"data_offsets":[0,1]}})", zeros(1));
  CountingBudget budget(file.size() + (2u << 20));
  const auto r = check_with(budget, file);
  ASSERT_TRUE(r.aborted);
  EXPECT_EQ(r.aborted->limit, "header-memory-budget");
}

// The plain-header fast path charges its table as the general parse does: 100,000 valid entries
// (a 6.5 MB header; 4.8 MB of records and 1.6 MB of name keys) under a budget with 1 MiB beyond
// the header.
TEST(SafetensorsBudget, APlainHeaderCannotOutgrowTheBudgetEither) {
  const std::string file = plain_file(100'000);
  CountingBudget budget(file.size() + (1u << 20));
  {
    const auto r = check_with(budget, file);
    ASSERT_TRUE(r.aborted);
    EXPECT_EQ(r.aborted->limit, "header-memory-budget");
    EXPECT_LE(budget.peak, file.size() + (1u << 20));
  }
  EXPECT_EQ(budget.held, 0u);
  CountingBudget roomy(4 * file.size());
  EXPECT_TRUE(check_with(roomy, file).valid);
}

// The same tiny-entry header with room for its table gets its verdict (ST4: entries must be
// objects), and a valid file is valid under a budget of a few MiB.
TEST(SafetensorsBudget, RoomForTheTableGivesTheVerdict) {
  const std::string file = st_file(tiny_entries(200'000));
  CountingBudget roomy(file.size() + (64u << 20));
  const auto r = check_with(roomy, file);
  EXPECT_FALSE(r.aborted);
  EXPECT_EQ(error_ids(r).substr(0, 3), "ST4");

  CountingBudget small(4u << 20);
  const auto ok = check_with(small, st_file(R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}})", zeros(8)));
  EXPECT_TRUE(ok.valid) << error_ids(ok);
  EXPECT_FALSE(ok.aborted);
}

}  // namespace
