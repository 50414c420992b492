// SARIF 2.1.0: the rule catalogue as tool.driver.rules and each finding's byte offset as a
// region, so a code-scanning page can list and locate findings.
#include <string>

#include "tensorgate/report_writers.hpp"

namespace tensorgate {
namespace {

std::string_view sarif_level(Severity s) {
  switch (s) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::info: return "note";
  }
  return "error";
}

// A relative path or file name as a URI reference: unreserved bytes and '/' stay, the rest is
// percent-encoded; absolute paths become file:// URIs.
std::string path_uri(std::string_view path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out = path.starts_with('/') ? "file://" : "";
  for (const char ch : path) {
    const auto c = static_cast<unsigned char>(ch);
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
    if (keep) {
      out += ch;
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

void write_driver(JsonWriter& w) {
  w.begin_object();
  w.field("name", "tensorgate");
  w.field("version", tool_version());
  w.field("semanticVersion", tool_version());
  w.field("informationUri", "https://github.com/tensorgate/tensorgate");
  w.key("rules");
  w.begin_array();
  for (const RuleInfo& r : all_rules()) {
    w.begin_object();
    w.field("id", r.id);
    w.key("shortDescription");
    w.begin_object();
    w.field("text", r.title);
    w.end_object();
    w.key("fullDescription");
    w.begin_object();
    w.field("text", rule_help(r.rule));
    w.end_object();
    w.key("defaultConfiguration");
    w.begin_object();
    w.field("level", sarif_level(r.severity));
    w.end_object();
    w.key("properties");
    w.begin_object();
    w.field("family", r.family);
    w.end_object();
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

void write_artifact_location(JsonWriter& w, std::string_view uri, std::size_t index) {
  w.key("artifactLocation");
  w.begin_object();
  w.field("uri", uri);
  w.field("index", std::uint64_t{index});
  w.end_object();
}

void write_result(JsonWriter& w, const Finding& f, std::string_view uri, std::size_t artifact) {
  w.begin_object();
  w.field("ruleId", rule_info(f.rule).id);
  w.field("ruleIndex", static_cast<std::uint64_t>(f.rule));
  w.field("level", sarif_level(f.severity));
  w.key("message");
  w.begin_object();
  w.field("text", f.tensor ? "tensor \"" + *f.tensor + "\": " + f.message : f.message);
  w.end_object();
  w.key("locations");
  w.begin_array();
  w.begin_object();
  w.key("physicalLocation");
  w.begin_object();
  write_artifact_location(w, uri, artifact);
  if (f.offset) {
    w.key("region");
    w.begin_object();
    w.field("byteOffset", *f.offset);
    w.field("byteLength", std::uint64_t{1});
    w.end_object();
  }
  w.end_object();
  w.end_object();
  w.end_array();
  w.end_object();
}

void write_invocation(JsonWriter& w, std::span<const CheckedFile> files) {
  bool ok = true;
  for (const CheckedFile& f : files) ok = ok && !f.error;
  w.begin_array();
  w.begin_object();
  w.field("executionSuccessful", ok);
  w.key("toolExecutionNotifications");
  w.begin_array();
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (!files[i].error) continue;
    w.begin_object();
    w.field("level", "error");
    w.key("message");
    w.begin_object();
    w.field("text", files[i].path + ": " + *files[i].error);
    w.end_object();
    w.end_object();
  }
  w.end_array();
  w.end_object();
  w.end_array();
}

}  // namespace

void write_sarif_report(std::span<const CheckedFile> files, const ReportOptions&,
                        const JsonWriter::Sink& sink) {
  JsonWriter w(sink);
  w.begin_object();
  w.field("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
  w.field("version", "2.1.0");
  w.key("runs");
  w.begin_array();
  w.begin_object();
  w.key("tool");
  w.begin_object();
  w.key("driver");
  write_driver(w);
  w.end_object();
  w.key("invocations");
  write_invocation(w, files);
  w.key("artifacts");
  w.begin_array();
  for (const CheckedFile& f : files) {
    w.begin_object();
    w.key("location");
    w.begin_object();
    w.field("uri", path_uri(f.path));
    w.end_object();
    if (f.report) w.field("length", f.report->bytes_seen);
    if (f.chat_template) w.field("length", f.chat_template->bytes);
    w.end_object();
  }
  w.end_array();
  w.key("results");
  w.begin_array();
  for (std::size_t i = 0; i < files.size(); ++i) {
    const std::vector<Finding>* findings =
        files[i].report      ? &files[i].report->findings
        : files[i].directory ? &files[i].directory->findings
        : files[i].audit     ? &files[i].audit->findings
        : files[i].chat_template ? &files[i].chat_template->findings
                             : nullptr;
    if (!findings) continue;
    const std::string uri = path_uri(files[i].path);
    for (const Finding& f : *findings) write_result(w, f, uri, i);
  }
  w.end_array();
  w.end_object();
  w.end_array();
  w.end_object();
  w.flush();
}

}  // namespace tensorgate
