// GGW: files that parse but would hurt a consumer, and the GGW.llama-cpp note.
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

TEST(GgufGGW, ControlCharactersInAKey) {
  const auto r = check_gguf(base().kv_u8(std::string("a\0b", 3), 1).kv_u8("c\nd", 1).build());
  EXPECT_TRUE(r.valid);
  EXPECT_EQ(gguf_warnings(r), "GGW.key-control GGW.key-control");
}

TEST(GgufGGW, KeyNotAsciiOrTooLong) {
  EXPECT_EQ(gguf_warnings(check_gguf(base().kv_u8("g\xc3\xa9n\xc3\xa9ral.x", 1).build())), "GGW.key-format");
  const auto r = tensorgate::validate_gguf(base().kv_u8(std::string(65536, 'k'), 1).build());
  EXPECT_TRUE(r.valid);
  EXPECT_EQ(gguf_warnings(r), "GGW.key-format");
  EXPECT_EQ(gguf_warnings(tensorgate::validate_gguf(base().kv_u8(std::string(65535, 'k'), 1).build())), "");
}

TEST(GgufGGW, ControlCharactersInATensorName) {
  const auto r = check_gguf(base().tensor(std::string("w\x01", 2), 0, {8}).build());
  EXPECT_TRUE(r.valid);
  EXPECT_EQ(gguf_warnings(r), "GGW.name-control");
  EXPECT_EQ(*r.findings[0].tensor, std::string("w\x01", 2));
}

TEST(GgufGGW, NamesThatCollideWhereLlamaCppCutsAtNul) {
  auto r = check_gguf(base().tensor(std::string("t\0a", 3), 0, {8}).tensor(std::string("t\0b", 3), 0, {8}).build());
  EXPECT_TRUE(r.valid) << gguf_errors(r);
  EXPECT_EQ(gguf_warnings(r), "GGW.name-control GGW.name-control GGW.name-collision");
  r = check_gguf(base().tensor(std::string("t\0a", 3), 0, {8}).tensor("t", 0, {8}).build());
  EXPECT_EQ(gguf_warnings(r), "GGW.name-control GGW.name-collision");
  r = check_gguf(base().tensor("t", 0, {8}).tensor(std::string("t\0a", 3), 0, {8}).build());
  EXPECT_EQ(gguf_warnings(r), "GGW.name-control GGW.name-collision");
  r = check_gguf(base().tensor(std::string("t\0a", 3), 0, {8}).tensor("ta", 0, {8}).build());
  EXPECT_EQ(gguf_warnings(r), "GGW.name-control");
}

TEST(GgufGGW, TensorNameNotUtf8) {
  const auto r = check_gguf(base().tensor("w\xff", 0, {8}).build());
  EXPECT_TRUE(r.valid);
  EXPECT_EQ(gguf_warnings(r), "GGW.name-utf8");
}

// The tokenizer's arrays, special tokens, byte tokens and merges: gguf_gg6_test.cpp.

// Chat templates in the metadata are judged by the CT family: chat_template_gguf_test.cpp.

TEST(GgufGGW, OrdinaryChatTemplateIsFine) {
  const std::string tmpl = "{% for message in messages %}<|{{ message['role'] }}|>{{ message['content'] }}{% endfor %}";
  const auto r = check_gguf(base().kv_str("tokenizer.chat_template", tmpl).build());
  EXPECT_EQ(gguf_warnings(r), "");
  EXPECT_TRUE(r.summary.get<GgufSummary>()->chat_template);
}

TEST(GgufGGW, MissingArchitecture) {
  const auto r = check_gguf(GgufBuilder().kv_str("general.name", "x").build());
  EXPECT_TRUE(r.valid);
  EXPECT_EQ(gguf_warnings(r), "GGW.architecture");
}

TEST(GgufGGW, BlockCountDisagreesWithTheTensors) {
  GgufBuilder b = base();
  b.kv_u32("llama.block_count", 3).tensor("blk.0.w", 0, {8}).tensor("blk.1.w", 0, {8});
  auto r = check_gguf(b.build());
  EXPECT_TRUE(r.valid);
  EXPECT_EQ(gguf_warnings(r), "GGW.block-count");
  GgufBuilder c = base();
  c.kv_u32("llama.block_count", 2).tensor("blk.0.w", 0, {8}).tensor("blk.1.w", 0, {8}).tensor("output.w", 0, {8});
  r = check_gguf(c.build());
  EXPECT_EQ(gguf_warnings(r), "");
  EXPECT_EQ(r.summary.get<GgufSummary>()->block_count, 2u);
}

TEST(GgufGGW, BlockCountOfAnotherArchitectureIsIgnored) {
  GgufBuilder b = base();
  b.kv_u32("gpt2.block_count", 7).tensor("blk.0.w", 0, {8});
  EXPECT_EQ(gguf_warnings(check_gguf(b.build())), "");
}

TEST(GgufGGW, WellKnownKeysOfTheWrongType) {
  EXPECT_EQ(gguf_warnings(check_gguf(base().kv_u32("general.name", 1).build())), "GGW.metadata-type");
  EXPECT_EQ(gguf_warnings(check_gguf(base().kv_str("llama.context_length", "4096").build())), "GGW.metadata-type");
  EXPECT_EQ(gguf_warnings(check_gguf(base().kv_str("general.file_type", "Q4_K_M").build())), "GGW.metadata-type");
  EXPECT_EQ(gguf_warnings(check_gguf(GgufBuilder().kv_u32("general.architecture", 1).build())), "GGW.metadata-type");
}

TEST(GgufGGW, LlamaCppNoteOnlyOnValidFiles) {
  EXPECT_NE(tgtest::find_rule(check_gguf(gguf_minimal()), "GGW.llama-cpp"), nullptr);
  std::string f = gguf_minimal();
  f[0] = 'X';
  EXPECT_EQ(tgtest::find_rule(check_gguf(f), "GGW.llama-cpp"), nullptr);
  GgufBuilder v1(1);
  v1.kv_str("general.architecture", "llama");
  EXPECT_EQ(tgtest::find_rule(check_gguf(v1.build()), "GGW.llama-cpp")->message,
            "llama.cpp's reader refuses this file: GGUF version 1");
}

}  // namespace
