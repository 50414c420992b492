#pragma once
// Chat templates (family CT, docs/rules.md): the Jinja templates a model ships, judged by a
// Jinja lexer and never rendered. A template that reaches Python internals is an error
// (CT.python-internals: CVE-2024-34359 and its successors); |attr, computed subscripts and
// computed attribute names are warnings; so is a template that does not lex.
//
// Where templates are: GGUF metadata (tokenizer.chat_template and tokenizer.chat_template.<name>,
// judged by the GGUF validator as the value streams), chat_template.jinja and other *.jinja
// files, and the top-level chat_template of tokenizer_config.json or chat_template.json (a
// string, or a list of {"name", "template"}). Templates stream through the lexer in O(1)
// memory; the JSON files are read whole within Limits::directory.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tensorgate/finding.hpp"
#include "tensorgate/limits.hpp"

namespace tensorgate {

struct ChatTemplateInfo {
  std::string name;         // how findings name it: "chat_template", "chat_template \"tool_use\"", the file's name
  std::uint64_t bytes = 0;  // its length (decoded from JSON where it was JSON)
};

// The templates of one file and what the CT rules found in them. Offsets are file offsets for a
// .jinja file; for JSON files they are unset and the message says where in the template.
struct ChatTemplateFileReport {
  std::string name;  // the file's name
  bool valid = false;
  std::uint64_t bytes = 0;  // the file's length
  std::vector<Finding> findings;
  std::uint64_t findings_dropped = 0;
  std::uint64_t template_count = 0;
  std::vector<ChatTemplateInfo> templates;  // the first ChatTemplateLimits::max_listed
};

enum class ChatTemplateFileKind : std::uint8_t {
  jinja,  // the file is one template (chat_template.jinja, any *.jinja)
  json,   // tokenizer_config.json or chat_template.json: templates in its chat_template
};
// The kind of template file a file name says, or nothing for other files.
std::optional<ChatTemplateFileKind> chat_template_file_kind(std::string_view file_name);

// A file fed in chunks of any size (splitting it differently never changes the report).
class ChatTemplateFileCheck {
 public:
  ChatTemplateFileCheck(std::string name, ChatTemplateFileKind kind, const Limits& limits = {});
  ~ChatTemplateFileCheck();
  ChatTemplateFileCheck(const ChatTemplateFileCheck&) = delete;
  ChatTemplateFileCheck& operator=(const ChatTemplateFileCheck&) = delete;
  void feed(std::string_view bytes);
  ChatTemplateFileReport finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// A whole file in memory (the service's /v1/check-model has the texts).
ChatTemplateFileReport check_chat_template_file(std::string name, ChatTemplateFileKind kind, std::string_view bytes,
                                                const Limits& limits = {});

// One template's findings, offsets from its first byte (tests, fuzzers, tools).
std::vector<Finding> check_chat_template(std::string_view text, const Limits& limits = {});

}  // namespace tensorgate
