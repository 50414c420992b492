// The input's first bytes choose the chunk boundaries: the report must equal the whole-buffer
// report exactly, with and without the total size announced, and skipping the data (where the
// validator allows it) must equal feeding it. A lower header limit or a small shared memory
// budget may only turn the report into an `aborted` one, never change a verdict.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "fuzz_support.hpp"
#include "tensorgate/validator.hpp"

namespace {

// Layout: byte 0 = number of cuts (mod 16), then two bytes per cut (little-endian position),
// then the file.
struct Split {
  std::vector<std::size_t> cuts;
  std::string_view file;
};

Split split_of(std::string_view input) {
  Split s;
  if (input.empty()) return s;
  const std::size_t count = static_cast<unsigned char>(input[0]) % 16;
  const std::size_t header = std::min(input.size(), 1 + 2 * count);
  s.file = input.substr(header);
  for (std::size_t i = 1; i + 1 < header; i += 2) {
    const std::size_t pos = static_cast<unsigned char>(input[i]) | (static_cast<unsigned char>(input[i + 1]) << 8);
    s.cuts.push_back(s.file.empty() ? 0 : pos % (s.file.size() + 1));
  }
  std::sort(s.cuts.begin(), s.cuts.end());
  return s;
}

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

tensorgate::Report chunked(const Split& s, bool hint, bool skip_data,
                           const tensorgate::Limits& limits = {}, tensorgate::MemoryBudget* budget = nullptr) {
  auto v = tensorgate::make_safetensors_validator(limits, budget);
  if (hint) v->set_total_size(s.file.size());
  std::size_t at = 0;
  for (const std::size_t cut : s.cuts) {
    v->feed(s.file.substr(at, cut - at));
    at = cut;
  }
  if (skip_data && v->bytes_wanted() == 0) {
    v->skip(s.file.size() - at);
  } else {
    v->feed(s.file.substr(at));
  }
  return v->finish();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Split s = split_of(tgfuzz::as_text(data, size));
  const auto whole = tensorgate::make_safetensors_validator();
  whole->feed(s.file);
  const std::string expected = tgfuzz::render(whole->finish());
  tgfuzz::require(tgfuzz::render(chunked(s, false, false)) == expected, "chunking-invariant");
  tgfuzz::require(tgfuzz::render(chunked(s, true, false)) == expected, "size-hint-invariant");
  tgfuzz::require(tgfuzz::render(chunked(s, false, true)) == expected, "skip-invariant");

  // Capacity limits: either the same report, or aborted because of that very limit.
  const std::size_t cap = s.cuts.empty() ? 64 : s.cuts.front();
  tensorgate::Limits limits;
  limits.max_header_bytes = cap;
  const auto limited = chunked(s, false, false, limits);
  tgfuzz::require(tgfuzz::render(limited) == expected || (limited.aborted && limited.aborted->limit == "header-bytes"),
                  "header-limit-only-aborts");
  SmallBudget budget(cap);
  const auto budgeted = chunked(s, true, false, {}, &budget);
  tgfuzz::require(tgfuzz::render(budgeted) == expected ||
                      (budgeted.aborted && budgeted.aborted->limit == "header-memory-budget"),
                  "budget-only-aborts");
  return 0;
}
