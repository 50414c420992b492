#pragma once
// Chat templates (family CT, docs/rules.md): the Jinja templates a model ships, judged by a
// Jinja lexer and never rendered. A template that reaches Python internals is an error
// (CT.python-internals: CVE-2024-34359 and its successors); so is one that names an attribute by
// a value it computes (CT.attr-filter, CT.computed-attribute, CT.str-format); a subscript whose
// key the template may build and a template that does not lex are warnings.
//
// Where templates are: GGUF metadata (tokenizer.chat_template and tokenizer.chat_template.<name>,
// judged by the GGUF validator as the value streams) and the files kChatTemplateFiles names,
// which chat_template_file_kind() tells apart: chat_template.jinja and every other *.jinja file
// (transformers reads additional_chat_templates/*.jinja, a server takes any path), and the
// top-level chat_template (a string, or a list of {"name", "template"}) of chat_template.json,
// tokenizer_config.json, processor_config.json (older processors saved it there) and any other
// *_config.json, whichever of them a loader reads it from. Templates stream through the lexer in
// O(1) memory; the JSON files are read whole within Limits::directory.
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
  json,   // chat_template.json or a *_config.json: templates in its top-level chat_template
};
// The files that may hold chat templates, said once for help texts and errors.
inline constexpr std::string_view kChatTemplateFiles =
    "*.jinja, chat_template.json, tokenizer_config.json, processor_config.json and any other *_config.json";
// The kind of template file a name says, or nothing for other files: a file name, or a path
// below a model directory ("additional_chat_templates/tool_use.jinja"), where only *.jinja counts
// (loaders read the JSON files at the top only).
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
