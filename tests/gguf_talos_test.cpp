// The five 2024 Cisco Talos reports on ggml's GGUF reader (llama.cpp commit 18c2e17), each as
// the file that triggered it: every one is refused with the exact rule, from the header bytes
// alone, and without allocating from the announced count or length.
#include <gtest/gtest.h>

#include "gguf_builder.hpp"
#include "gguf_check.hpp"
#include "tensorgate/gguf.hpp"
#include "tensorgate/validator.hpp"

namespace {

using namespace tgtest;
using tensorgate::Progress;

// Counts what the validator may hold: a budget of 1 MiB must be enough for any of these files.
class SmallBudget final : public tensorgate::MemoryBudget {
 public:
  bool try_acquire(std::size_t bytes) override {
    if (held + bytes > (1u << 20)) return false;
    held += bytes;
    return true;
  }
  void release(std::size_t bytes) override { held -= bytes; }
  std::size_t held = 0;
};

// Feeds the bytes without the size hint, as a network stream would arrive, and returns the
// verdict the validator had reached by `early` bytes and the final report.
std::pair<Progress, tensorgate::Report> stream(const std::string& f, std::size_t early) {
  SmallBudget budget;
  auto v = tensorgate::make_gguf_validator({}, &budget);
  const Progress p = v->feed(std::string_view(f).substr(0, early));
  v->feed(std::string_view(f).substr(early));
  return {p, v->finish()};
}

GgufBuilder base() {
  GgufBuilder b;
  b.kv_str("general.architecture", "llama");
  return b;
}

// TALOS-2024-1912, CVE-2024-21825: an array of strings whose count overflowed
// n * sizeof(struct gguf_str) in the allocation, then filled past it.
TEST(GgufTalos, Talos2024_1912_StringArrayCount) {
  GgufBuilder b = base();
  b.kv_array("tokenizer.ggml.tokens", kGgufString, 0x1000000000000001ull, b.enc().str("a").str("b").bytes());
  const std::string f = b.build();
  const auto [early, r] = stream(f, 24 + 45 + 8 + 21 + 4 + 4 + 8);  // up to the count
  EXPECT_EQ(early, Progress::invalid);
  EXPECT_EQ(gguf_errors(r), "GG2.array-length");
  EXPECT_EQ(gguf_errors(check_gguf(f)), "GG2.array-length");
  // Within ggml's 2^30 limit but beyond the file: no allocation, a truncation.
  GgufBuilder c = base();
  c.kv_array("tokenizer.ggml.tokens", kGgufString, 1u << 30, c.enc().str("a").bytes());
  EXPECT_EQ(gguf_errors(check_gguf(c.build())), "GG2.truncated");
}

// TALOS-2024-1913, CVE-2024-23496: gguf_fread_str allocated length + 1 bytes, so a length of
// 2^64-1 wrapped to an allocation of 0 that the read then overflowed.
TEST(GgufTalos, Talos2024_1913_StringLength) {
  GgufBuilder b = base();
  b.kv_raw("general.name", kGgufString, b.enc().u64(~0ull).raw("overflow").bytes());
  const std::string f = b.build();
  const auto [early, r] = stream(f, 24 + 45 + 8 + 12 + 4 + 8);
  EXPECT_EQ(early, Progress::invalid);
  EXPECT_EQ(gguf_errors(r), "GG2.string-length");
  // The same length as a key, and as a tensor name.
  const std::string key = GgufBytes().header(0, 1).u64(~0ull).raw(std::string(16, 'x')).bytes();
  EXPECT_EQ(gguf_errors(check_gguf(key)), "GG2.string-length");
  GgufBuilder t = base();
  t.tensor_bytes(t.enc().u64(~0ull).raw("w").bytes());
  EXPECT_EQ(gguf_errors(check_gguf(t.build())), "GG4.name-length");
}

// TALOS-2024-1914, CVE-2024-21802: n_dims was not checked against GGML_MAX_DIMS (4) before the
// dimensions were read into info->ne[4].
TEST(GgufTalos, Talos2024_1914_NDims) {
  GgufBuilder b = base();
  GgufBytes info = b.enc();
  info.str("w").u32(0x40);
  for (int i = 0; i < 0x40; ++i) info.u64(0x4141414141414141ull);
  info.u32(0).u64(0);
  b.tensor_bytes(info.bytes());
  const std::string f = b.build();
  const auto [early, r] = stream(f, 24 + 45 + 9 + 4);
  EXPECT_EQ(early, Progress::invalid);
  EXPECT_EQ(gguf_errors(r), "GG4.n-dims");
  EXPECT_EQ(gguf_errors(check_gguf(f)), "GG4.n-dims");
}

// TALOS-2024-1915, CVE-2024-21836: n_tensors * sizeof(struct gguf_tensor_info) overflowed, and
// the tensor infos were written past the small allocation.
TEST(GgufTalos, Talos2024_1915_TensorCount) {
  const std::uint64_t wraps = 0x0e38e38e38e38e39ull;  // x 0x48 wraps to a small size
  GgufBuilder b = base();
  b.tensor("w", 0, {8}).counts(wraps, std::nullopt);
  const std::string f = b.build();
  const auto [early, r] = stream(f, 24);
  EXPECT_EQ(early, Progress::invalid);
  EXPECT_EQ(gguf_errors(r), "GG1.tensor-count");
  EXPECT_EQ(gguf_errors(check_gguf(f)), "GG1.tensor-count");
}

// TALOS-2024-1916, CVE-2024-23605: n_kv * sizeof(struct gguf_kv) overflowed the same way.
TEST(GgufTalos, Talos2024_1916_KvCount) {
  GgufBuilder b = base();
  b.counts(std::nullopt, 0x2000000000000001ull);
  const std::string f = b.build();
  const auto [early, r] = stream(f, 24);
  EXPECT_EQ(early, Progress::invalid);
  EXPECT_EQ(gguf_errors(r), "GG1.kv-count");
  EXPECT_EQ(gguf_errors(check_gguf(f)), "GG1.kv-count");
  // A count small enough for some file but not this one: refuted with the size, at the end
  // without it, and in between the validator held nothing for it.
  GgufBuilder c = base();
  c.counts(std::nullopt, 1u << 24);
  const auto [early2, r2] = stream(c.build(), 24);
  EXPECT_EQ(early2, Progress::need_more);
  EXPECT_EQ(gguf_errors(r2), "GG1.kv-count");
}

}  // namespace
