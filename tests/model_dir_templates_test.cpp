// CT in a model directory (the CLI's check_model_directory): every file a loader renders chat
// templates from is judged in the directory's report: the chat_template of processor_config.json
// and of any other *_config.json, and *.jinja files in subdirectories (transformers'
// additional_chat_templates/), which the walk then leaves out; a nested model directory keeps
// its own.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "inputs.hpp"
#include "model_dir_builder.hpp"
#include "model_dir_check.hpp"

using namespace tgtest;
using tensorgate::Rule;

namespace {

const char* const kBuiltAttribute = "{{ messages|map(attribute='xxclassxx'|replace('x', '_'))|list }}";
const char* const kBenign = "{% for m in messages %}{{ '<|' ~ m.role ~ '|>' ~ m.content }}{% endfor %}";

ScratchDir llama_dir() {
  ScratchDir d;
  const LlamaShape s;
  d.write("config.json", s.config_json());
  d.write_weights(llama_tensors(s), 1);
  return d;
}

void write_nested(const ScratchDir& d, const std::string& rel, const std::string& text) {
  std::filesystem::create_directories((d.path() / rel).parent_path());
  d.write(rel, text);
}

tensorgate::DirectoryReport check(const ScratchDir& d) {
  std::vector<tensorgate::CheckedFile> files;
  tensorgate::cli::check_model_directory(d.path().string(), tensorgate::FormatChoice::auto_detect, files);
  return *files.back().directory;
}

std::vector<std::string> ct_rules(const tensorgate::DirectoryReport& r) {
  std::vector<std::string> out;
  for (const auto& f : r.findings)
    if (tensorgate::rule_info(f.rule).family == "CT") out.emplace_back(tensorgate::rule_info(f.rule).id);
  return out;
}

std::vector<std::string> template_files(const tensorgate::DirectoryReport& r) {
  std::vector<std::string> out;
  for (const auto& t : r.summary.chat_templates) out.push_back(t.file);
  return out;
}

std::string json_with_template(const char* text) {
  std::string escaped;
  for (const char* p = text; *p; ++p) {
    if (*p == '"' || *p == '\\') escaped += '\\';
    escaped += *p;
  }
  return "{\"processor_class\": \"X\", \"chat_template\": \"" + escaped + "\"}";
}

}  // namespace

TEST(ModelDirTemplates, ProcessorConfigAndAnyConfigJsonWithAChatTemplate) {
  for (const char* name : {"processor_config.json", "foo_config.json"}) {
    const ScratchDir d = llama_dir();
    d.write(name, json_with_template(kBuiltAttribute));
    const auto r = check(d);
    EXPECT_EQ(ct_rules(r), std::vector<std::string>{"CT.computed-attribute"}) << name;
    EXPECT_FALSE(r.valid) << name;
    EXPECT_EQ(template_files(r), std::vector<std::string>{name});
    ASSERT_FALSE(r.findings.empty());
    EXPECT_NE(r.findings[0].message.find(name), std::string::npos) << r.findings[0].message;
  }
  const ScratchDir d = llama_dir();
  d.write("processor_config.json", json_with_template(kBenign));
  d.write("generation_config.json", "{\"max_new_tokens\": 16}");
  const auto r = check(d);
  EXPECT_TRUE(ct_rules(r).empty());
  EXPECT_TRUE(r.valid);
  EXPECT_EQ(template_files(r), std::vector<std::string>{"processor_config.json"}) << "a config with no chat_template holds none";
}

TEST(ModelDirTemplates, UnreadableConfigJsonIsAnError) {
  const ScratchDir d = llama_dir();
  d.write("processor_config.json", "{\"chat_template\": ");
  const auto r = check(d);
  EXPECT_EQ(ct_rules(r), std::vector<std::string>{"CT.unreadable"});
  EXPECT_FALSE(r.valid);
}

TEST(ModelDirTemplates, JinjaFilesInSubdirectories) {
  const ScratchDir d = llama_dir();
  write_nested(d, "additional_chat_templates/tool_use.jinja", kBuiltAttribute);
  write_nested(d, "templates/deeper/rag.jinja", kBenign);
  write_nested(d, "templates/notes.txt", "{{ x.__class__ }}");
  const auto r = check(d);
  EXPECT_EQ(ct_rules(r), std::vector<std::string>{"CT.computed-attribute"});
  EXPECT_FALSE(r.valid);
  EXPECT_EQ(template_files(r),
            (std::vector<std::string>{"additional_chat_templates/tool_use.jinja", "templates/deeper/rag.jinja"}));
  ASSERT_FALSE(r.findings.empty());
  EXPECT_NE(r.findings[0].message.find("additional_chat_templates/tool_use.jinja"), std::string::npos)
      << r.findings[0].message;
  // The walk checks the model directory as one item and leaves its templates to it.
  const auto items = tensorgate::cli::expand_inputs({d.path().string()});
  ASSERT_EQ(items.size(), 1u);
  EXPECT_TRUE(items[0].model_directory);
}

TEST(ModelDirTemplates, ANestedModelDirectoryKeepsItsOwn) {
  const ScratchDir d = llama_dir();
  const LlamaShape s;
  write_nested(d, "draft/config.json", s.config_json());
  write_nested(d, "draft/model.safetensors", "");  // named as a model: the directory is one
  write_nested(d, "draft/chat_template.jinja", kBuiltAttribute);
  write_nested(d, "draft/extra/tool_use.jinja", kBuiltAttribute);
  const auto outer = check(d);
  EXPECT_TRUE(ct_rules(outer).empty());
  EXPECT_TRUE(template_files(outer).empty());
  EXPECT_EQ(tensorgate::cli::nested_template_files((d.path() / "draft").string()),
            std::vector<std::string>{"extra/tool_use.jinja"});
  const auto items = tensorgate::cli::expand_inputs({d.path().string()});
  ASSERT_EQ(items.size(), 2u);
  EXPECT_TRUE(items[0].model_directory && items[1].model_directory);
  EXPECT_TRUE(items[1].path.ends_with("draft"));
}

TEST(ModelDirTemplates, OutsideAModelDirectoryEachFileIsItsOwnItem) {
  ScratchDir d;
  write_nested(d, "a/tool_use.jinja", kBuiltAttribute);
  d.write("processor_config.json", json_with_template(kBenign));
  const auto items = tensorgate::cli::expand_inputs({d.path().string()});
  std::vector<std::string> names;
  for (const auto& i : items) names.push_back(std::filesystem::path(i.path).filename().string());
  EXPECT_EQ(names, (std::vector<std::string>{"processor_config.json", "tool_use.jinja"}));
}
