// The files chat templates come in: *.jinja (one template, streamed) and chat_template.json or a
// *_config.json (read whole within Limits::directory, templates streamed out of the parse).
#include <utility>

#include "chat_template/config_json.hpp"
#include "chat_template/scan.hpp"
#include "common/finding_list.hpp"
#include "common/printable.hpp"
#include "tensorgate/chat_template.hpp"

namespace tensorgate {
namespace {

std::string where(std::string_view label, std::uint64_t offset) {
  return std::string(label) + " at byte " + std::to_string(offset);
}

}  // namespace

std::optional<ChatTemplateFileKind> chat_template_file_kind(std::string_view file_name) {
  const std::string_view base = file_name.substr(file_name.find_last_of('/') + 1);
  if (base.size() > 6 && base.ends_with(".jinja")) return ChatTemplateFileKind::jinja;
  if (base.size() < file_name.size()) return std::nullopt;  // a path: JSON files count at the top only
  // tokenizer_config.json, processor_config.json, and any other <something>_config.json.
  constexpr std::string_view kConfig = "_config.json";
  if (base == "chat_template.json" || (base.size() > kConfig.size() && base.ends_with(kConfig)))
    return ChatTemplateFileKind::json;
  return std::nullopt;
}

struct ChatTemplateFileCheck::Impl {
  Impl(std::string n, ChatTemplateFileKind k, const Limits& l) : name(std::move(n)), kind(k), limits(l), scan(l.chat_template) {}

  std::string name;
  ChatTemplateFileKind kind;
  Limits limits;
  detail::ct::TemplateScan scan;
  std::string json;
  bool json_too_large = false;
  std::uint64_t bytes = 0;
};

ChatTemplateFileCheck::ChatTemplateFileCheck(std::string name, ChatTemplateFileKind kind, const Limits& limits)
    : impl_(std::make_unique<Impl>(std::move(name), kind, limits)) {}

ChatTemplateFileCheck::~ChatTemplateFileCheck() = default;

void ChatTemplateFileCheck::feed(std::string_view bytes) {
  Impl& m = *impl_;
  m.bytes += bytes.size();
  if (m.kind == ChatTemplateFileKind::jinja) {
    m.scan.feed(bytes);
    return;
  }
  if (m.json_too_large) return;
  if (m.json.size() + bytes.size() > m.limits.directory.max_json_bytes) {
    m.json_too_large = true;
    std::string().swap(m.json);
    return;
  }
  m.json.append(bytes);
}

ChatTemplateFileReport ChatTemplateFileCheck::finish() {
  Impl& m = *impl_;
  ChatTemplateFileReport r;
  r.name = m.name;
  r.bytes = m.bytes;
  detail::FindingList findings(m.limits.max_findings);
  const std::string file = detail::quoted(m.name, 80);
  const auto listed = [&](std::string name, std::uint64_t bytes) {
    if (r.template_count++ < m.limits.chat_template.max_listed) r.templates.push_back(ChatTemplateInfo{std::move(name), bytes});
  };
  if (m.kind == ChatTemplateFileKind::jinja) {
    listed(m.name, m.bytes);
    for (detail::ct::Result& x : m.scan.finish()) findings.add(x.rule, where(file, x.offset) + " " + x.message, x.offset);
  } else if (m.json_too_large) {
    findings.add(Rule::ct_unreadable, file + " is larger than " + std::to_string(m.limits.directory.max_json_bytes) +
                                          " bytes: its chat templates cannot be judged");
  } else {
    detail::ct::JsonTemplatesOut out;
    out.on_template = [&](detail::ct::JsonTemplate t) {
      listed(t.label, t.bytes);
      for (detail::ct::Result& x : t.results) findings.add(x.rule, file + " " + where(t.label, x.offset) + " " + x.message);
    };
    out.on_shape = [&](std::string what) { findings.add(Rule::ct_shape, file + ": " + what); };
    const std::string error = detail::ct::scan_config_json(m.json, m.limits, out);
    if (!error.empty()) findings.add(Rule::ct_unreadable, file + " is " + error + ": its chat templates cannot be judged");
  }
  r.valid = !findings.has_errors();
  r.findings_dropped = findings.dropped();
  r.findings = findings.take();
  return r;
}

ChatTemplateFileReport check_chat_template_file(std::string name, ChatTemplateFileKind kind, std::string_view bytes,
                                                const Limits& limits) {
  ChatTemplateFileCheck check(std::move(name), kind, limits);
  check.feed(bytes);
  return check.finish();
}

std::vector<Finding> check_chat_template(std::string_view text, const Limits& limits) {
  detail::ct::TemplateScan scan(limits.chat_template);
  scan.feed(text);
  detail::FindingList findings(limits.max_findings);
  for (detail::ct::Result& x : scan.finish()) findings.add(x.rule, where("the template", x.offset) + " " + x.message, x.offset);
  return findings.take();
}

}  // namespace tensorgate
