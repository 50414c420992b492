// GG1: the header. Magic, version (and byte order), and the counts, refuted before anything is
// allocated.
#include <gtest/gtest.h>

#include "chunked.hpp"
#include "gguf_builder.hpp"
#include "gguf_check.hpp"
#include "tensorgate/gguf.hpp"
#include "tensorgate/validator.hpp"

namespace {

using namespace tgtest;
using tensorgate::Progress;
using tensorgate::GgufSummary;

std::string header_only(std::uint64_t n_tensors, std::uint64_t n_kv, std::size_t pad_to = 0) {
  std::string b = GgufBytes().header(n_tensors, n_kv).bytes();
  b.resize(std::max(b.size(), pad_to), '\0');
  return b;
}

TEST(GgufGG1, MinimalFileIsValid) {
  const auto r = check_gguf(gguf_minimal());
  EXPECT_TRUE(r.valid);
  EXPECT_EQ(gguf_errors(r), "");
  EXPECT_EQ(gguf_warnings(r), "");
  EXPECT_EQ(r.format, tensorgate::Format::gguf);
  ASSERT_TRUE(r.summary.get<GgufSummary>());
  EXPECT_EQ(r.summary.get<GgufSummary>()->version, 3u);
  EXPECT_FALSE(r.summary.get<GgufSummary>()->big_endian);
}

TEST(GgufGG1, VersionTwoIsValid) {
  GgufBuilder b(2);
  b.kv_str("general.architecture", "llama").tensor("w", 0, {4});
  const auto r = check_gguf(b.build());
  EXPECT_TRUE(r.valid) << gguf_errors(r);
  EXPECT_EQ(r.summary.get<GgufSummary>()->version, 2u);
}

TEST(GgufGG1, WrongMagicAtItsFirstWrongByte) {
  std::string f = gguf_minimal();
  f[3] = 'G';
  const auto r = check_gguf(f);
  EXPECT_EQ(gguf_errors(r), "GG1.magic");
  EXPECT_EQ(r.findings[0].offset, 3u);
  EXPECT_FALSE(r.summary.get<GgufSummary>());
}

TEST(GgufGG1, SafetensorsBytesAreNotGguf) {
  const auto r = check_gguf(std::string("\x08\0\0\0\0\0\0\0{}      ", 16));
  EXPECT_EQ(gguf_errors(r), "GG1.magic");
  EXPECT_EQ(r.findings[0].offset, 0u);
}

TEST(GgufGG1, ShortWrongMagicIsStillTheMagic) {
  EXPECT_EQ(gguf_errors(check_gguf("GX")), "GG1.magic");
}

TEST(GgufGG1, EveryPrefixOfTheHeaderIsTruncated) {
  const std::string f = gguf_minimal();
  for (std::size_t n = 0; n < 24; ++n) {
    const auto r = check_gguf(std::string_view(f).substr(0, n));
    EXPECT_EQ(gguf_errors(r), "GG1.truncated") << n << " bytes";
  }
}

TEST(GgufGG1, VersionOneHeaderIsSixteenBytes) {
  GgufBuilder b(1);
  b.kv_str("general.architecture", "llama");
  const std::string f = b.build();
  EXPECT_EQ(f.substr(16, 8), GgufBytes(1).str("general.architecture").bytes().substr(0, 8));
  EXPECT_EQ(gguf_errors(check_gguf(std::string_view(f).substr(0, 15))), "GG1.truncated");
  EXPECT_TRUE(check_gguf(f).valid);
}

TEST(GgufGG1, UnknownVersions) {
  for (const std::uint32_t v : {0u, 4u, 1000u, 0x00010000u, 0xffffffffu}) {
    std::string f = gguf_minimal();
    const std::string ver = GgufBytes().u32(v).bytes();
    f.replace(4, 4, ver);
    const auto r = check_gguf(f);
    EXPECT_EQ(gguf_errors(r), "GG1.version") << v;
    EXPECT_EQ(r.findings[0].offset, 4u);
  }
}

TEST(GgufGG1, ByteSwappedVersionMeansBigEndian) {
  GgufBuilder b(3, true);
  b.kv_str("general.architecture", "llama").tensor("w", 0, {8});
  const auto r = check_gguf(b.build());
  EXPECT_TRUE(r.valid) << gguf_errors(r);
  EXPECT_EQ(gguf_warnings(r), "GGW.byte-order");
  ASSERT_TRUE(r.summary.get<GgufSummary>());
  EXPECT_TRUE(r.summary.get<GgufSummary>()->big_endian);
  EXPECT_EQ(r.summary.get<GgufSummary>()->tensor_count, 1u);
}

TEST(GgufGG1, AbsurdTensorCountIsAnErrorAtOnceWithoutTheSize) {
  // 2^60 tensor infos of at least 24 bytes cannot fit in any file: refuted after 24 bytes,
  // without the size hint and before any allocation.
  const std::string f = header_only(std::uint64_t{1} << 60, 0, 100);
  auto v = tensorgate::make_gguf_validator();
  EXPECT_EQ(v->feed(std::string_view(f).substr(0, 24)), Progress::invalid);
  EXPECT_EQ(v->bytes_wanted(), 0u);
  const auto r = check_gguf(f);
  EXPECT_EQ(gguf_errors(r), "GG1.tensor-count");
  EXPECT_EQ(r.findings[0].offset, 8u);
}

TEST(GgufGG1, AbsurdKvCountIsAnErrorAtOnce) {
  const std::string f = header_only(0, std::uint64_t{1} << 63, 100);
  auto v = tensorgate::make_gguf_validator();
  EXPECT_EQ(v->feed(std::string_view(f).substr(0, 24)), Progress::invalid);
  const auto r = check_gguf(f);
  EXPECT_EQ(gguf_errors(r), "GG1.kv-count");
  EXPECT_EQ(r.findings[0].offset, 16u);
}

TEST(GgufGG1, CountTooLargeForThisFileWithTheSizeKnown) {
  // 1000 tensor infos need 24,000 bytes; the file has 100. Known at once with the size hint,
  // at the end without it: the same report either way.
  const std::string f = header_only(1000, 0, 100);
  auto v = tensorgate::make_gguf_validator();
  v->set_total_size(f.size());
  EXPECT_EQ(v->feed(std::string_view(f).substr(0, 24)), Progress::invalid);
  // Without the size the zero bytes read as tensor infos with empty names (a duplicate), until
  // the end shows that 1000 of them cannot fit: only the count is reported.
  auto u = tensorgate::make_gguf_validator();
  u->feed(f);
  const auto unhinted = u->finish();
  EXPECT_EQ(gguf_errors(unhinted), "GG1.tensor-count");
  EXPECT_EQ(unhinted.findings.size(), 1u);
  EXPECT_EQ(gguf_errors(check_gguf(f)), "GG1.tensor-count");
}

TEST(GgufGG1, KvCountTooLargeForThisFile) {
  EXPECT_EQ(gguf_errors(check_gguf(header_only(0, 10, 100))), "GG1.kv-count");
}

TEST(GgufGG1, CountsThatJustFitAreNotRefuted) {
  // One kv pair's minimum (13 bytes) fits exactly; the pair is then cut: GG2, not GG1.
  std::string f = header_only(0, 1, 24 + 13);
  const auto r = check_gguf(f);
  EXPECT_EQ(gguf_errors(r), "GG2.key-empty");  // 8-byte zero length: an empty key, then u8 type 0
}

TEST(GgufGG1, FindingsAfterARefutedCountAreDropped) {
  // Without the size, the validator reads a valid pair and a duplicate key before learning that
  // 1000 pairs cannot fit; the report is the one the size hint gives: the count alone.
  GgufBuilder b;
  b.kv_u8("a", 1).kv_u8("a", 2).counts(0, 1000);
  const auto r = check_gguf(b.build());
  EXPECT_EQ(gguf_errors(r), "GG1.kv-count");
  EXPECT_EQ(r.findings.size(), 1u);
}

TEST(GgufGG1, VersionOneCountsAreThirtyTwoBits) {
  GgufBuilder b(1);
  b.kv_str("general.architecture", "llama").tensor("w", 0, {8});
  const std::string f = b.build();
  EXPECT_EQ(f.substr(8, 8), std::string("\x01\0\0\0\x01\0\0\0", 8));
  const auto r = check_gguf(f);
  EXPECT_TRUE(r.valid) << gguf_errors(r);
  EXPECT_EQ(gguf_warnings(r), "GGW.version");
}

}  // namespace
