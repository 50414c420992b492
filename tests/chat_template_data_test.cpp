// The templates of tests/data/chat_templates/: benign ones in the styles real models ship
// (Llama 3 and 3.1 with tools, ChatML and its tool form, Mistral and its tool form, Gemma, Phi-3,
// Phi-4, DeepSeek-R1, Hermes tool use with macros, Zephyr, Llama 2, Command-R, and one of every
// Jinja feature they use), the real templates of the model families people use most, copied
// from public collections (real/, SOURCES.md says where each comes from), which must give no
// finding at all, and hostile ones in every encoding and bypass the CT rules know. Each gets the
// findings expected.txt lists, wherever it is: a .jinja file, tokenizer_config.json (a string,
// or an entry of a list), a GGUF tokenizer.chat_template.
#include <gtest/gtest.h>

#include <boost/json/serialize.hpp>
#include <boost/json/string.hpp>
#include <fstream>
#include <map>
#include <sstream>

#include "chat_templates.hpp"
#include "gguf_builder.hpp"
#include "gguf_check.hpp"
#include "tensorgate/gguf.hpp"

namespace {

std::map<std::string, std::string> expected() {
  std::map<std::string, std::string> out;
  std::istringstream in(tgtest::template_data("expected.txt"));
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto space = line.find(' ');
    out[line.substr(0, space)] = space == std::string::npos ? "" : line.substr(space + 1);
  }
  return out;
}

std::string json_string(const std::string& text) { return boost::json::serialize(boost::json::string(text)); }

std::string ct_of(const tensorgate::Report& r) {
  std::vector<tensorgate::Finding> ct;
  for (const auto& f : r.findings)
    if (tensorgate::rule_info(f.rule).family == "CT") ct.push_back(f);
  return tgtest::ct_ids(ct);
}

TEST(ChatTemplateData, EveryFileIsListed) {
  const auto want = expected();
  std::size_t benign = 0, real = 0, hostile = 0;
  for (const char* dir : {"benign", "real", "hostile"})
    for (const auto& f : tgtest::template_data_files(dir)) {
      EXPECT_TRUE(want.count(f)) << f << " is not in expected.txt";
      (std::string(dir) == "benign" ? benign : std::string(dir) == "real" ? real : hostile) += 1;
    }
  EXPECT_GE(benign, 12u);
  EXPECT_GE(real, 40u);
  EXPECT_GE(hostile, 30u);
  EXPECT_EQ(want.size(), benign + real + hostile) << "expected.txt lists a file that is not there";
}

TEST(ChatTemplateData, RealTemplatesHaveNoFindingAtAll) {
  for (const auto& f : tgtest::template_data_files("real")) {
    const auto r = tgtest::check_jinja(tgtest::template_data(f));
    EXPECT_EQ(tgtest::ct_ids(r.findings), "") << f;
    EXPECT_TRUE(r.valid) << f;
    EXPECT_EQ(expected()[f], "") << f;
  }
}

TEST(ChatTemplateData, HostileTemplatesAreInvalid) {
  for (const auto& f : tgtest::template_data_files("hostile")) {
    const std::string ids = expected()[f];
    EXPECT_TRUE(tgtest::any_error(ids)) << f << " is hostile: an error is expected (" << ids << ")";
  }
}

TEST(ChatTemplateData, AsJinjaFiles) {
  for (const auto& [file, ids] : expected()) {
    const auto r = tgtest::check_jinja(tgtest::template_data(file));
    EXPECT_EQ(tgtest::ct_ids(r.findings), ids) << file;
    EXPECT_EQ(r.valid, !tgtest::any_error(ids)) << file;
  }
}

TEST(ChatTemplateData, InTokenizerConfigJson) {
  for (const auto& [file, ids] : expected()) {
    const std::string t = json_string(tgtest::template_data(file));
    const std::string as_string = "{\"bos_token\": \"<s>\", \"chat_template\": " + t + ", \"model_max_length\": 4096}";
    const auto r = tensorgate::check_chat_template_file("tokenizer_config.json", tensorgate::ChatTemplateFileKind::json, as_string);
    EXPECT_EQ(tgtest::ct_ids(r.findings), ids) << file;
    EXPECT_EQ(r.template_count, 1u) << file;
    const std::string as_list = "{\"chat_template\": [{\"name\": \"default\", \"template\": \"{{ x }}\"}, {\"name\": \"tool_use\", \"template\": " + t + "}]}";
    const auto l = tensorgate::check_chat_template_file("tokenizer_config.json", tensorgate::ChatTemplateFileKind::json, as_list);
    EXPECT_EQ(tgtest::ct_ids(l.findings), ids) << file;
    EXPECT_EQ(l.template_count, 2u) << file;
    if (!l.findings.empty()) {
      EXPECT_NE(l.findings[0].message.find("chat_template \"tool_use\""), std::string::npos) << l.findings[0].message;
    }
  }
}

TEST(ChatTemplateData, InGgufMetadata) {
  for (const auto& [file, ids] : expected()) {
    tgtest::GgufBuilder b;
    b.kv_str("general.architecture", "llama").kv_str("tokenizer.chat_template", tgtest::template_data(file));
    const auto r = tgtest::check_gguf(b.tensor("w", 0, {8}).build());
    EXPECT_EQ(ct_of(r), ids) << file;
    EXPECT_EQ(r.valid, !tgtest::any_error(ids)) << file;
  }
}

}  // namespace
