// The files chat templates come in: *.jinja (offsets are file offsets), tokenizer_config.json and
// chat_template.json (a string or a list of {name, template}; every duplicate judged; JSON
// escapes undone before Jinja's); CT.shape and CT.unreadable in both verdicts.
#include <gtest/gtest.h>

#include "chat_templates.hpp"

namespace {

using tensorgate::ChatTemplateFileKind;
using tgtest::ct_ids;

tensorgate::ChatTemplateFileReport json(std::string_view text, const tensorgate::Limits& limits = {}) {
  const auto whole = tensorgate::check_chat_template_file("tokenizer_config.json", ChatTemplateFileKind::json, text, limits);
  tensorgate::ChatTemplateFileCheck pieces("tokenizer_config.json", ChatTemplateFileKind::json, limits);
  for (std::size_t i = 0; i < text.size(); i += 3) pieces.feed(text.substr(i, 3));
  const auto chunked = pieces.finish();
  EXPECT_EQ(ct_ids(chunked.findings), ct_ids(whole.findings)) << "fed in 3-byte pieces";
  EXPECT_EQ(chunked.template_count, whole.template_count);
  return whole;
}

TEST(ChatTemplateFiles, KindsByName) {
  EXPECT_EQ(tensorgate::chat_template_file_kind("chat_template.jinja"), ChatTemplateFileKind::jinja);
  EXPECT_EQ(tensorgate::chat_template_file_kind("tool_use.jinja"), ChatTemplateFileKind::jinja);
  EXPECT_EQ(tensorgate::chat_template_file_kind("tokenizer_config.json"), ChatTemplateFileKind::json);
  EXPECT_EQ(tensorgate::chat_template_file_kind("chat_template.json"), ChatTemplateFileKind::json);
  EXPECT_FALSE(tensorgate::chat_template_file_kind("config.json"));
  EXPECT_FALSE(tensorgate::chat_template_file_kind(".jinja"));
  EXPECT_FALSE(tensorgate::chat_template_file_kind("model.safetensors"));
  // Every *_config.json may carry a chat_template (processor_config.json does in older processors).
  EXPECT_EQ(tensorgate::chat_template_file_kind("processor_config.json"), ChatTemplateFileKind::json);
  EXPECT_EQ(tensorgate::chat_template_file_kind("foo_config.json"), ChatTemplateFileKind::json);
  EXPECT_FALSE(tensorgate::chat_template_file_kind("_config.json"));
  EXPECT_FALSE(tensorgate::chat_template_file_kind("config.json.bak"));
  // Paths below a model directory: *.jinja at any depth, the JSON files only at the top.
  EXPECT_EQ(tensorgate::chat_template_file_kind("additional_chat_templates/tool_use.jinja"), ChatTemplateFileKind::jinja);
  EXPECT_FALSE(tensorgate::chat_template_file_kind("sub/tokenizer_config.json"));
  EXPECT_FALSE(tensorgate::chat_template_file_kind("sub/.jinja"));
}

TEST(ChatTemplateFiles, ProcessorConfigJson) {
  const std::string text = R"({"processor_class": "LlavaProcessor", "chat_template": "{{ xs|map(attribute=n)|list }}"})";
  const auto r = tensorgate::check_chat_template_file("processor_config.json", ChatTemplateFileKind::json, text);
  EXPECT_EQ(ct_ids(r.findings), "CT.computed-attribute");
  EXPECT_FALSE(r.valid);
  EXPECT_EQ(r.template_count, 1u);
  const auto none = tensorgate::check_chat_template_file("generation_config.json", ChatTemplateFileKind::json,
                                                         R"({"max_new_tokens": 16})");
  EXPECT_TRUE(none.findings.empty());
  EXPECT_TRUE(none.valid);
  EXPECT_EQ(none.template_count, 0u);
}

TEST(ChatTemplateFiles, JinjaFileOffsetsAreFileOffsets) {
  const auto r = tgtest::check_jinja("{# a #}\n{{ messages[0].__class__ }}");
  ASSERT_EQ(ct_ids(r.findings), "CT.python-internals");
  EXPECT_EQ(r.findings[0].offset, 23u);
  EXPECT_EQ(r.template_count, 1u);
  ASSERT_EQ(r.templates.size(), 1u);
  EXPECT_EQ(r.templates[0].bytes, 35u);
  EXPECT_EQ(r.bytes, 35u);
}

TEST(ChatTemplateFiles, TokenizerConfigStringAndList) {
  auto r = json(R"({"chat_template": "{{ x.__class__ }}"})");
  EXPECT_EQ(ct_ids(r.findings), "CT.python-internals");
  EXPECT_FALSE(r.valid);
  EXPECT_FALSE(r.findings[0].offset) << "no file offset inside a JSON string";
  EXPECT_NE(r.findings[0].message.find("\"tokenizer_config.json\" chat_template at byte 5"), std::string::npos) << r.findings[0].message;
  r = json(R"({"chat_template": [{"name": "default", "template": "{{ m }}"}, {"template": "{{ x[y ~ 1] }}", "name": "rag"}, {"template": "{{ z|attr(a) }}"}]})");
  EXPECT_EQ(ct_ids(r.findings), "CT.computed-subscript CT.attr-filter");
  EXPECT_FALSE(r.valid) << "CT.attr-filter is an error";
  EXPECT_NE(r.findings[0].message.find("chat_template \"rag\""), std::string::npos) << "the name may come after the template";
  EXPECT_NE(r.findings[1].message.find("chat_template[2]"), std::string::npos) << r.findings[1].message;
  ASSERT_EQ(r.templates.size(), 3u);
  EXPECT_EQ(r.templates[1].name, "chat_template \"rag\"");
  r = json(R"({"bos_token": "<s>", "chat_template": null, "added_tokens_decoder": {"0": {"content": "__x__"}}})");
  EXPECT_EQ(ct_ids(r.findings), "") << "null is no template; other keys are not templates";
  EXPECT_EQ(r.template_count, 0u);
}

TEST(ChatTemplateFiles, JsonEscapesThenJinjaEscapes) {
  EXPECT_EQ(ct_ids(json(R"({"chat_template": "{{ x['\u005f\u005fclass'] }}"})").findings), "CT.python-internals");
  EXPECT_EQ(ct_ids(json(R"({"chat_template": "{{ x['\\x5f\\x5fclass'] }}"})").findings), "CT.python-internals");
  EXPECT_EQ(ct_ids(json(R"({"chat_template": "{{ x['\\u005f_'] }}"})").findings), "CT.python-internals");
  EXPECT_EQ(ct_ids(json(R"({"chat_template": "{{ '\n' ~ x['_\\_'] }}"})").findings), "");
}

TEST(ChatTemplateFiles, EveryDuplicateIsJudged) {
  // Python's json keeps the last; a reader that keeps the first exists too.
  auto r = json(R"({"chat_template": "{{ x.__class__ }}", "chat_template": "{{ ok }}"})");
  EXPECT_EQ(ct_ids(r.findings), "CT.python-internals");
  EXPECT_EQ(r.template_count, 2u);
  r = json(R"({"chat_template": [{"name": "a", "template": "{{ ok }}", "template": "{{ y.__z }}"}]})");
  EXPECT_EQ(ct_ids(r.findings), "CT.python-internals");
}

TEST(ChatTemplateFiles, ShapeWarnings) {
  EXPECT_EQ(ct_ids(json(R"({"chat_template": 7})").findings), "CT.shape");
  EXPECT_EQ(ct_ids(json(R"({"chat_template": {"template": "x"}})").findings), "CT.shape");
  EXPECT_EQ(ct_ids(json(R"({"chat_template": ["{{ x }}"]})").findings), "CT.shape");
  EXPECT_EQ(ct_ids(json(R"({"chat_template": [{"name": "a"}]})").findings), "CT.shape");
  EXPECT_EQ(ct_ids(json(R"({"chat_template": [{"name": "a", "template": 3}]})").findings), "CT.shape CT.shape");
  EXPECT_EQ(ct_ids(json(R"({"chat_template": [{"name": 1, "template": "{{ x }}"}]})").findings), "CT.shape");
  EXPECT_TRUE(json(R"({"chat_template": 7})").valid);
  EXPECT_EQ(ct_ids(json(R"({"chat_template": [], "x": {"chat_template": 1}})").findings), "");
}

TEST(ChatTemplateFiles, UnreadableFilesCannotBeJudged) {
  for (const char* bad : {"{\"chat_template\": \"{{ x }}\"", "[1, 2]", "\"text\"", "{\"a\": NaN}", "{} x", ""}) {
    const auto r = json(bad);
    EXPECT_EQ(ct_ids(r.findings), "CT.unreadable") << bad;
    EXPECT_FALSE(r.valid) << bad;
  }
  tensorgate::Limits small;
  small.directory.max_json_bytes = 16;
  EXPECT_EQ(ct_ids(json(R"({"chat_template": "{{ x }}"})", small).findings), "CT.unreadable");
  small.directory.max_json_bytes = 64;
  small.directory.max_json_depth = 2;
  EXPECT_EQ(ct_ids(json(R"({"a": [[1]], "chat_template": "{{ x }}"})", small).findings), "CT.unreadable");
  EXPECT_EQ(ct_ids(json(R"({"a": [1], "chat_template": "{{ x }}"})", small).findings), "");
}

TEST(ChatTemplateFiles, ATemplateBeforeTheProblemIsStillReported) {
  const auto r = json(R"({"chat_template": "{{ x.__class__ }}", "oops")");
  EXPECT_EQ(ct_ids(r.findings), "CT.python-internals CT.unreadable");
}

TEST(ChatTemplateFiles, ListedTemplatesAreCapped) {
  std::string t = R"({"chat_template": [)";
  for (int i = 0; i < 100; ++i) t += std::string(i ? "," : "") + R"({"name": "t)" + std::to_string(i) + R"(", "template": "{{ x[i ~ 1] }}"})";
  t += "]}";
  const auto r = json(t);
  EXPECT_EQ(r.template_count, 100u);
  EXPECT_EQ(r.templates.size(), 64u);
  EXPECT_EQ(ct_ids(r.findings).size(), 100 * std::string("CT.computed-subscript ").size() - 1) << "one finding per template";
}

}  // namespace
