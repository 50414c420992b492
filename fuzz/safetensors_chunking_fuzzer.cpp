// The input's first bytes choose the chunk boundaries: the report must equal the whole-buffer
// report exactly, with and without the total size announced, and skipping the data (where the
// validator allows it) or reading the header into the validator's room must equal feeding it. A lower header limit or a small shared memory
// budget may only turn the report into an `aborted` one, never change a verdict.
#include <cstdint>

#include "fuzz_support.hpp"
#include "tensorgate/validator.hpp"

namespace {

// A shared budget with room for `capacity` bytes.
class SmallBudget final : public tensorgate::MemoryBudget {
 public:
  explicit SmallBudget(std::size_t capacity) : left_(capacity) {}
  bool try_acquire(std::size_t bytes) override {
    if (bytes > left_) return false;
    left_ -= bytes;
    return true;
  }
  void release(std::size_t bytes) override { left_ += bytes; }

 private:
  std::size_t left_;
};

tensorgate::Report limited(const tgfuzz::Split& s, const tensorgate::Limits& limits, tensorgate::MemoryBudget* budget,
                           bool hint) {
  // With the size announced, read in place: a room the budget refuses may only abort too.
  return tgfuzz::feed_chunked([&] { return tensorgate::make_safetensors_validator(limits, budget); }, s, hint, false,
                              hint);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const tgfuzz::Split s = tgfuzz::split_of(tgfuzz::as_text(data, size));
  tgfuzz::check_chunking([] { return tensorgate::make_safetensors_validator(); }, s);
  const std::string expected = tgfuzz::render(tgfuzz::feed_chunked([] { return tensorgate::make_safetensors_validator(); },
                                                                   tgfuzz::Split{{}, s.file}, false, false));

  // Capacity limits: either the same report, or aborted because of that very limit.
  const std::size_t cap = s.cuts.empty() ? 64 : s.cuts.front();
  tensorgate::Limits limits;
  limits.max_header_bytes = cap;
  const auto with_limit = limited(s, limits, nullptr, false);
  tgfuzz::require(tgfuzz::render(with_limit) == expected ||
                      (with_limit.aborted && with_limit.aborted->limit == "header-bytes"),
                  "header-limit-only-aborts");
  SmallBudget budget(cap);
  const auto with_budget = limited(s, {}, &budget, true);
  tgfuzz::require(tgfuzz::render(with_budget) == expected ||
                      (with_budget.aborted && with_budget.aborted->limit == "header-memory-budget"),
                  "budget-only-aborts");
  return 0;
}
