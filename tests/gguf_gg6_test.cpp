// GG6: tokenizer metadata that llama.cpp's loader indexes out of bounds on: errors. Every case
// is checked whole, in 7-byte pieces and byte by byte (check_gguf), so the fast path over whole
// strings and the path over cut ones agree.
#include <gtest/gtest.h>

#include "gguf_builder.hpp"
#include "gguf_check.hpp"
#include "tensorgate/gguf.hpp"

using tensorgate::GgufSummary;

namespace {

using namespace tgtest;

GgufBuilder base() {
  GgufBuilder b;
  b.kv_str("general.architecture", "llama");
  return b;
}

// Past TokenizerCheck::kMaxKept (2 x 64 KiB + 1): only a token's ends are kept.
std::size_t TokenizerCheckLength() { return 2 * 64 * 1024 + 2; }

std::vector<std::string> vocab(std::size_t n) {
  std::vector<std::string> v;
  for (std::size_t i = 0; i < n; ++i) v.push_back("tok" + std::to_string(i));
  return v;
}

// A byte-fallback vocabulary as llama and gpt2 conversions write it: <0x00>..<0xFF>, then words.
std::vector<std::string> byte_vocab() {
  std::vector<std::string> v = {"<unk>", "<s>", "</s>"};
  const char* hex = "0123456789ABCDEF";
  for (int b = 0; b < 256; ++b) v.push_back(std::string("<0x") + hex[b >> 4] + hex[b & 15] + ">");
  for (const char* w : {"t", "o", "to", "k", "tok", "\xe2\x96\x81the"}) v.push_back(w);
  return v;
}

TEST(GgufGG6, AConsistentTokenizerIsValidAndQuiet) {
  GgufBuilder b = base();
  const auto v = byte_vocab();
  b.kv_str("tokenizer.ggml.model", "llama").kv_strings("tokenizer.ggml.tokens", v);
  b.kv_f32s("tokenizer.ggml.scores", std::vector<float>(v.size(), 0.0f));
  b.kv_i32s("tokenizer.ggml.token_type", std::vector<std::int32_t>(v.size(), 1));
  b.kv_strings("tokenizer.ggml.merges", {"t o", "to k"}).kv_u32("tokenizer.ggml.bos_token_id", 1);
  b.kv_u32("tokenizer.ggml.eos_token_id", 2);
  const auto r = check_gguf(b.build());
  EXPECT_TRUE(r.valid) << gguf_errors(r);
  EXPECT_EQ(gguf_errors(r) + gguf_warnings(r), "");
  EXPECT_EQ(r.summary.get<GgufSummary>()->vocab_size, v.size());
}

TEST(GgufGG6, TokenizerArraysOfDifferentLengths) {
  GgufBuilder b = base();
  b.kv_strings("tokenizer.ggml.tokens", vocab(3)).kv_f32s("tokenizer.ggml.scores", {0, 0, 0});
  b.kv_i32s("tokenizer.ggml.token_type", {1, 1});
  const auto r = check_gguf(b.build());
  EXPECT_FALSE(r.valid);
  EXPECT_EQ(gguf_errors(r), "GG6.tokenizer-length");
  EXPECT_NE(r.findings[0].message.find("3 and 2"), std::string::npos) << r.findings[0].message;
}

TEST(GgufGG6, TokenizerArraysOfAnotherElementType) {
  EXPECT_EQ(gguf_errors(check_gguf(base().kv_u32s("tokenizer.ggml.tokens", {1, 2}).build())), "GG6.tokenizer-type");
  EXPECT_EQ(gguf_errors(check_gguf(base().kv_i32s("tokenizer.ggml.scores", {1}).build())), "GG6.tokenizer-type");
  EXPECT_EQ(gguf_errors(check_gguf(base().kv_u32s("tokenizer.ggml.token_type", {1}).build())), "GG6.tokenizer-type");
  // Merges and special-token ids of another type are not read out of bounds: still warnings.
  auto r = check_gguf(base().kv_str("tokenizer.ggml.merges", "a b").build());
  EXPECT_TRUE(r.valid);
  EXPECT_EQ(gguf_warnings(r), "GGW.tokenizer-type");
  r = check_gguf(base().kv_str("tokenizer.ggml.bos_token_id", "1").build());
  EXPECT_TRUE(r.valid);
  EXPECT_EQ(gguf_warnings(r), "GGW.tokenizer-type");
}

TEST(GgufGG6, SpecialTokenOutsideTheVocabulary) {
  GgufBuilder b = base();
  b.kv_strings("tokenizer.ggml.tokens", vocab(3)).kv_u32("tokenizer.ggml.eos_token_id", 3);
  b.kv_i32("tokenizer.ggml.padding_token_id", -1).kv_u32("tokenizer.ggml.bos_token_id", 2);
  const auto r = check_gguf(b.build());
  EXPECT_FALSE(r.valid);
  EXPECT_EQ(gguf_errors(r), "GG6.special-token GG6.special-token");
  EXPECT_NE(r.findings[0].message.find("eos_token_id"), std::string::npos);
  // The last id of the vocabulary is inside it.
  EXPECT_TRUE(check_gguf(base().kv_strings("tokenizer.ggml.tokens", vocab(3)).kv_u32("tokenizer.ggml.eos_token_id", 2).build()).valid);
}

TEST(GgufGG6, SpecialTokenBeforeTheVocabulary) {
  GgufBuilder b = base();
  b.kv_u32("tokenizer.ggml.unknown_token_id", 100).kv_strings("tokenizer.ggml.tokens", vocab(3));
  EXPECT_EQ(gguf_errors(check_gguf(b.build())), "GG6.special-token");
}

TEST(GgufGG6, AByteTokenOfOtherThanTwoHexDigits) {
  for (const char* bad : {"<0x-1>", "<0x123>", "<0xG0>", "<0x>", "<0x1>"}) {
    auto v = byte_vocab();
    v.push_back(bad);
    const auto r = check_gguf(base().kv_strings("tokenizer.ggml.tokens", v).build());
    EXPECT_EQ(gguf_errors(r), "GG6.byte-token") << bad;
    ASSERT_FALSE(r.findings.empty());
    EXPECT_NE(r.findings[0].message.find("token " + std::to_string(v.size() - 1)), std::string::npos) << r.findings[0].message;
  }
  // Tokens that only look alike are words: "<0x" alone, lower-case digits, no closing bracket.
  auto v = byte_vocab();
  for (const char* fine : {"<0x", "<0xab>", "<0x12", "0x12>", "<0X12>"}) v.push_back(fine);
  EXPECT_EQ(gguf_errors(check_gguf(base().kv_strings("tokenizer.ggml.tokens", v).build())), "");
}

TEST(GgufGG6, ManyBadByteTokensAreOneFindingWithACount) {
  auto v = byte_vocab();
  v.push_back("<0x-1>");
  v.push_back("<0x-2>");
  v.push_back("<0x-3>");
  const auto r = check_gguf(base().kv_strings("tokenizer.ggml.tokens", v).build());
  EXPECT_EQ(gguf_errors(r), "GG6.byte-token");
  EXPECT_NE(r.findings[0].message.find("<0x-1>"), std::string::npos);
  EXPECT_NE(r.findings[0].message.find("and 2 more"), std::string::npos) << r.findings[0].message;
}

TEST(GgufGG6, AMergeNamingATokenOutsideTheVocabulary) {
  for (const char* bad : {"t x", "x o", "to", " t", "t  o"}) {
    GgufBuilder b = base();
    b.kv_strings("tokenizer.ggml.tokens", byte_vocab()).kv_strings("tokenizer.ggml.merges", {"t o", bad});
    const auto r = check_gguf(b.build());
    EXPECT_EQ(gguf_errors(r), "GG6.merges") << bad;
    ASSERT_FALSE(r.findings.empty());
    EXPECT_NE(r.findings[0].message.find("merge 1 "), std::string::npos) << r.findings[0].message;
  }
}

TEST(GgufGG6, MergesBeforeTheTokensAreCheckedOnceTheTokensAreRead) {
  GgufBuilder b = base();
  b.kv_strings("tokenizer.ggml.merges", {"t o", "to q"}).kv_strings("tokenizer.ggml.tokens", byte_vocab());
  EXPECT_EQ(gguf_errors(check_gguf(b.build())), "GG6.merges");
  GgufBuilder fine = base();
  fine.kv_strings("tokenizer.ggml.merges", {"t o", "to k"}).kv_strings("tokenizer.ggml.tokens", byte_vocab());
  EXPECT_EQ(gguf_errors(check_gguf(fine.build())), "");
}

TEST(GgufGG6, MergesWithoutAVocabularyAreNotJudged) {
  // No tokens: nothing to name (llama.cpp fails on the missing vocabulary itself).
  EXPECT_EQ(gguf_errors(check_gguf(base().kv_strings("tokenizer.ggml.merges", {"a b"}).build())), "");
  // Tokens of another type are no vocabulary either: only their type is wrong.
  GgufBuilder b = base();
  b.kv_strings("tokenizer.ggml.merges", {"a b"}).kv_u32s("tokenizer.ggml.tokens", {1, 2});
  EXPECT_EQ(gguf_errors(check_gguf(b.build())), "GG6.tokenizer-type");
}

TEST(GgufGG6, PastTheVocabularyBoundTheMergesAreNotJudged) {
  // The bound leaves the merges unjudged instead of aborting: whether a length past the file's
  // end is refuted at once (size known) or at its end (size unknown), the report is the same.
  tensorgate::Limits limits;
  limits.gguf.max_vocab_bytes = 64;
  GgufBuilder b = base();
  b.kv_strings("tokenizer.ggml.tokens", vocab(40)).kv_strings("tokenizer.ggml.merges", {"tok1 tok2", "x y"});
  auto r = check_gguf(b.build(), limits);
  EXPECT_TRUE(r.valid);
  EXPECT_FALSE(r.aborted);
  limits.gguf.max_vocab_bytes = 4096;
  r = check_gguf(b.build(), limits);
  EXPECT_EQ(gguf_errors(r), "GG6.merges");
}

TEST(GgufGG6, ATokenPastTheKeptLengthStillHasItsEndsJudged) {
  // Longer than any token kept: no merge can be looked up by it, but a byte token it is not.
  const std::string long_token(TokenizerCheckLength(), 'a');
  auto v = byte_vocab();
  v.push_back(long_token);
  GgufBuilder b = base();
  b.kv_strings("tokenizer.ggml.tokens", v).kv_strings("tokenizer.ggml.merges", {"x y"});
  EXPECT_EQ(gguf_errors(check_gguf(b.build())), "");  // the merges are unjudged
  auto w = byte_vocab();
  w.push_back("<0x" + long_token + ">");
  EXPECT_EQ(gguf_errors(check_gguf(base().kv_strings("tokenizer.ggml.tokens", w).build())), "GG6.byte-token");
}

}  // namespace
