#include "report/sarif_parts.hpp"

#include "tensorgate/report_writers.hpp"

namespace tensorgate::detail {
namespace {

void write_descriptor(JsonWriter& w, const SarifDescriptor& d) {
  w.begin_object();
  w.field("id", d.id);
  w.key("shortDescription");
  w.begin_object();
  w.field("text", d.title);
  w.end_object();
  w.key("fullDescription");
  w.begin_object();
  w.field("text", d.help);
  w.end_object();
  w.key("defaultConfiguration");
  w.begin_object();
  w.field("level", d.level);
  w.end_object();
  w.key("properties");
  w.begin_object();
  w.field("family", d.family);
  w.end_object();
  w.end_object();
}

}  // namespace

std::string_view sarif_level(Severity s) {
  switch (s) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::info: return "note";
  }
  return "error";
}

std::string sarif_uri(std::string_view path) {
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

void write_sarif_driver(JsonWriter& w, std::span<const SarifDescriptor> extra) {
  w.begin_object();
  w.field("name", "tensorgate");
  w.field("version", tool_version());
  w.field("semanticVersion", tool_version());
  w.field("informationUri", "https://github.com/tensorgate/tensorgate");
  w.key("rules");
  w.begin_array();
  for (const RuleInfo& r : all_rules())
    write_descriptor(w, SarifDescriptor{r.id, r.title, rule_help(r.rule), sarif_level(r.severity), r.family});
  for (const SarifDescriptor& d : extra) write_descriptor(w, d);
  w.end_array();
  w.end_object();
}

void write_sarif_result(JsonWriter& w, const SarifResult& r) {
  w.begin_object();
  w.field("ruleId", r.rule_id);
  w.field("ruleIndex", r.rule_index);
  w.field("level", r.level);
  w.key("message");
  w.begin_object();
  w.field("text", r.message);
  w.end_object();
  w.key("locations");
  w.begin_array();
  w.begin_object();
  w.key("physicalLocation");
  w.begin_object();
  w.key("artifactLocation");
  w.begin_object();
  w.field("uri", r.uri);
  w.field("index", std::uint64_t{r.artifact});
  w.end_object();
  if (r.offset) {
    w.key("region");
    w.begin_object();
    w.field("byteOffset", *r.offset);
    w.field("byteLength", std::uint64_t{1});
    w.end_object();
  }
  w.end_object();
  w.end_object();
  w.end_array();
  w.end_object();
}

void write_sarif_finding(JsonWriter& w, const Finding& f, std::string_view uri, std::size_t artifact) {
  write_sarif_result(w, SarifResult{rule_info(f.rule).id, static_cast<std::uint64_t>(f.rule), sarif_level(f.severity),
                                    f.tensor ? "tensor \"" + *f.tensor + "\": " + f.message : f.message, uri, artifact,
                                    f.offset});
}

void write_sarif_log(const JsonWriter::Sink& sink, const SarifRun& run,
                     const std::function<void(JsonWriter&)>& results) {
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
  write_sarif_driver(w, run.extra_rules);
  w.end_object();
  w.key("invocations");
  w.begin_array();
  w.begin_object();
  w.field("executionSuccessful", run.successful);
  w.key("toolExecutionNotifications");
  w.begin_array();
  for (const std::string& text : run.notifications) {
    w.begin_object();
    w.field("level", "error");
    w.key("message");
    w.begin_object();
    w.field("text", text);
    w.end_object();
    w.end_object();
  }
  w.end_array();
  w.end_object();
  w.end_array();
  w.key("artifacts");
  w.begin_array();
  for (const SarifArtifact& a : run.artifacts) {
    w.begin_object();
    w.key("location");
    w.begin_object();
    w.field("uri", a.uri);
    w.end_object();
    if (a.length) w.field("length", *a.length);
    w.end_object();
  }
  w.end_array();
  w.key("results");
  w.begin_array();
  results(w);
  w.end_array();
  if (run.policy) {
    w.key("properties");
    w.begin_object();
    write_policy_identity(w, *run.policy);
    w.end_object();
  }
  w.end_object();
  w.end_array();
  w.end_object();
  w.flush();
}

}  // namespace tensorgate::detail
