// The gguf_fuzzer seeds: each gets the verdict and family it stands for, and the committed
// corpus/gguf_fuzzer/ is exactly what tests/tools/write_gguf_seeds writes.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "gguf_check.hpp"
#include "gguf_seeds.hpp"
#include "tensorgate/gguf.hpp"

namespace {

std::string first_family(const tensorgate::Report& r, tensorgate::Severity severity) {
  for (const auto& f : r.findings)
    if (f.severity == severity) return std::string(tensorgate::rule_info(f.rule).family);
  return "";
}

TEST(GgufSeeds, EachSeedHasItsVerdict) {
  const auto seeds = tgtest::gguf_seeds();
  EXPECT_GE(seeds.size(), 15u);
  EXPECT_LE(seeds.size(), 40u);
  for (const auto& s : seeds) {
    const auto r = tgtest::check_gguf(s.bytes);
    EXPECT_EQ(r.valid, s.valid) << s.name << ": " << tgtest::gguf_errors(r);
    const std::string family = first_family(r, s.valid ? tensorgate::Severity::warning : tensorgate::Severity::error);
    EXPECT_EQ(family, s.family) << s.name << ": " << tgtest::gguf_errors(r);
  }
}

TEST(GgufSeeds, CommittedCorpusIsCurrent) {
  const std::filesystem::path dir = std::filesystem::path(TG_SOURCE_DIR) / "corpus" / "gguf_fuzzer";
  ASSERT_TRUE(std::filesystem::is_directory(dir)) << dir << ": run write_gguf_seeds " << dir.string();
  for (const auto& s : tgtest::gguf_seeds()) {
    std::ifstream in(dir / s.name, std::ios::binary);
    ASSERT_TRUE(in) << s.name << " is missing: run write_gguf_seeds " << dir.string();
    std::ostringstream bytes;
    bytes << in.rdbuf();
    EXPECT_EQ(bytes.str(), s.bytes) << s.name << " is stale: run write_gguf_seeds " << dir.string();
  }
}

}  // namespace
