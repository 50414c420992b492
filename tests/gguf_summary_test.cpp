// The GGUF summary, and how every face shows it: the JSON report's summary and the text line.
#include <gtest/gtest.h>

#include "chunked.hpp"
#include "gguf_builder.hpp"
#include "gguf_check.hpp"
#include "tensorgate/gguf.hpp"
#include "tensorgate/report_writers.hpp"

using tensorgate::GgufSummary;

namespace {

using namespace tgtest;

const std::string kTemplate = "{% for message in messages %}<|{{ message['role'] }}|>{% endfor %}";

std::string llama_like() {
  GgufBuilder b;
  b.kv_str("general.architecture", "llama").kv_str("general.name", "Tiny Llama 3");
  b.kv_u32("general.file_type", 15).kv_u32("general.quantization_version", 2);
  b.kv_u32("llama.context_length", 8192).kv_u64("llama.embedding_length", 256).kv_u32("llama.block_count", 2);
  b.kv_str("tokenizer.ggml.model", "gpt2").kv_strings("tokenizer.ggml.tokens", {"a", "b", "c", "d"});
  b.kv_str("tokenizer.chat_template", kTemplate);
  b.tensor("token_embd.weight", 12, {256, 4}).tensor("blk.0.attn_norm.weight", 0, {256});
  b.tensor("blk.0.attn_q.weight", 12, {256, 256}).tensor("blk.1.attn_norm.weight", 0, {256});
  b.tensor("blk.1.attn_q.weight", 14, {256, 256}).tensor("output.weight", 14, {256, 4});
  return b.build();
}

TEST(GgufSummary, KeyMetadataAndTotals) {
  const auto r = check_gguf(llama_like());
  ASSERT_TRUE(r.valid) << gguf_errors(r);
  EXPECT_EQ(gguf_warnings(r), "");
  ASSERT_TRUE(r.summary.get<GgufSummary>());
  const auto& s = *r.summary.get<GgufSummary>();
  EXPECT_EQ(s.version, 3u);
  EXPECT_EQ(s.alignment, 32u);
  EXPECT_EQ(s.kv_count, 10u);
  EXPECT_EQ(s.tensor_count, 6u);
  EXPECT_EQ(s.architecture, "llama");
  EXPECT_EQ(s.name, "Tiny Llama 3");
  EXPECT_EQ(s.context_length, 8192u);
  EXPECT_EQ(s.embedding_length, 256u);
  EXPECT_EQ(s.block_count, 2u);
  EXPECT_EQ(s.tokenizer_model, "gpt2");
  EXPECT_EQ(s.vocab_size, 4u);
  EXPECT_TRUE(s.chat_template);
  EXPECT_EQ(s.file_type, 15u);
  EXPECT_EQ(s.quantization_version, 2u);
  EXPECT_EQ(tensorgate::gguf_file_type_name(15), "Q4_K_M");
  // F32 2 x 256; Q4_K 256x4 + 256x256 (260 blocks of 144); Q6_K 256x256 + 256x4 (260 of 210).
  ASSERT_EQ(s.by_type.size(), 3u);
  EXPECT_EQ(s.by_type[0].type, 0u);
  EXPECT_EQ(s.by_type[0].parameters, 512u);
  EXPECT_EQ(s.by_type[1].type, 12u);
  EXPECT_EQ(s.by_type[1].bytes, 260u * 144u);
  EXPECT_EQ(s.by_type[2].type, 14u);
  EXPECT_EQ(s.by_type[2].bytes, 260u * 210u);
  EXPECT_EQ(s.parameters, 512u + 2u * 256u * 260u);
  EXPECT_EQ(s.bytes, 2048u + 260u * 144u + 260u * 210u);
  ASSERT_TRUE(s.tensors);
  EXPECT_EQ((*s.tensors)[4].name, "blk.1.attn_q.weight");
}

TEST(GgufSummary, JsonSummaryNeverHoldsTheTemplateText) {
  const auto r = check_gguf(llama_like());
  const std::string json = render(r);
  EXPECT_NE(json.find("\"format\":\"gguf\""), std::string::npos);
  EXPECT_NE(json.find("\"summary\":{\"version\":3,\"byte_order\":\"little\",\"alignment\":32,\"kv_count\":10,"
                      "\"tensor_count\":6,"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"types\":{\"F32\":{\"tensors\":2,\"parameters\":512,\"bytes\":2048},\"Q4_K\":"), std::string::npos);
  EXPECT_NE(json.find("\"architecture\":\"llama\",\"name\":\"Tiny Llama 3\",\"context_length\":8192,"
                      "\"block_count\":2,\"embedding_length\":256,\"tokenizer_model\":\"gpt2\",\"vocab_size\":4,"
                      "\"chat_template\":true,\"file_type\":15,\"file_type_name\":\"Q4_K_M\",\"quantization_version\":2"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("{\"name\":\"output.weight\",\"type\":\"Q6_K\",\"shape\":[256,4],"), std::string::npos);
  EXPECT_EQ(json.find("message['role']"), std::string::npos);
}

TEST(GgufSummary, JsonWithoutTensorsAndMissingKeys) {
  GgufBuilder b;
  b.kv_u8("x", 1).tensor("w", 0, {8});
  const auto r = check_gguf(b.build());
  std::string json;
  tensorgate::JsonWriter w([&](std::string_view s) { json += s; });
  w.begin_object();
  tensorgate::ReportOptions o;
  o.include_tensors = false;
  tensorgate::write_report_fields(w, r, o);
  w.end_object();
  w.flush();
  EXPECT_NE(json.find("\"architecture\":null,\"name\":null,\"context_length\":null"), std::string::npos) << json;
  EXPECT_NE(json.find("\"chat_template\":false,\"file_type\":null,\"file_type_name\":null"), std::string::npos);
  EXPECT_EQ(json.find("\"tensors\":["), std::string::npos);
}

TEST(GgufSummary, TextHeadline) {
  std::vector<tensorgate::CheckedFile> files{{"m.gguf", check_gguf(llama_like()), std::nullopt}};
  std::string text;
  tensorgate::write_text_report(files, {}, [&](std::string_view s) { text += s; });
  EXPECT_EQ(text.substr(0, text.find('\n')),
            "m.gguf: valid gguf, v3, 6 tensors, 133,632 parameters (F32 Q4_K Q6_K), llama 2 blocks, Q4_K_M");
}

TEST(GgufSummary, SarifListsTheGgufRules) {
  std::vector<tensorgate::CheckedFile> files{{"m.gguf", check_gguf(GgufBuilder().kv_u8("x", 2).build()), std::nullopt}};
  std::string sarif;
  tensorgate::write_sarif_report(files, {}, [&](std::string_view s) { sarif += s; });
  EXPECT_NE(sarif.find("\"id\":\"GG5.overflow\""), std::string::npos);
  EXPECT_NE(sarif.find("\"ruleId\":\"GGW.architecture\""), std::string::npos);
}

TEST(GgufSummary, LongStringsAreCut) {
  GgufBuilder b;
  b.kv_str("general.architecture", "llama").kv_str("general.name", std::string(10000, 'n'));
  const auto r = check_gguf(b.build());
  ASSERT_TRUE(r.summary.get<GgufSummary>());
  EXPECT_EQ(r.summary.get<GgufSummary>()->name->size(), 4096u);
}

TEST(GgufSummary, NoSummaryForAnInvalidHeader) {
  GgufBuilder b;
  b.kv_u8("x", 1).kv_u8("x", 1);
  EXPECT_FALSE(check_gguf(b.build()).summary.get<GgufSummary>());
}

TEST(GgufSummary, RuleCatalogueFamiliesAreExact) {
  std::size_t gguf = 0;
  for (const auto& info : tensorgate::all_rules()) {
    if (!info.id.starts_with("GG")) continue;
    ++gguf;
    const std::string_view fam = info.family;
    EXPECT_TRUE(fam == "GG1" || fam == "GG2" || fam == "GG3" || fam == "GG4" || fam == "GG5" || fam == "GG6" || fam == "GGW")
        << info.id;
    EXPECT_EQ(info.severity == tensorgate::Severity::error, fam != "GGW") << info.id;
  }
  EXPECT_GE(gguf, 40u);
}

}  // namespace
