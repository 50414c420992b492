#include <algorithm>
#include <string>

#include "report/audit_writers.hpp"
#include "report/directory_json.hpp"
#include "report/entry_head.hpp"
#include "common/summary_steps.hpp"
#include "common/truncations.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate {

void write_finding(JsonWriter& w, const Finding& f) {
  w.begin_object();
  w.field("rule", rule_info(f.rule).id);
  w.field("severity", severity_name(f.severity));
  w.field("message", f.message);
  w.key("offset");
  if (f.offset) w.number(*f.offset); else w.null();
  w.key("tensor");
  if (f.tensor) w.string(*f.tensor); else w.null();
  w.end_object();
}

namespace {

// The fields of write_report_fields, pausing after each finding and in every list of the summary.
detail::Steps report_field_steps(detail::StepContext& c, const Report& r, const ReportOptions& options) {
  JsonWriter& w = c.w;
  w.field("format", format_name(r.format));
  w.key("valid");  // an aborted check has no verdict: null, not false
  if (r.aborted) w.null(); else w.boolean(r.valid);
  w.key("canonical");
  if (r.canonical) w.boolean(*r.canonical); else w.null();
  w.field("bytes", r.bytes_seen);
  w.key("findings");
  w.begin_array();
  for (const Finding& f : r.findings) {
    write_finding(w, f);
    co_await c.pause();
  }
  w.end_array();
  w.field("findings_dropped", r.findings_dropped);
  w.key("aborted");
  if (r.aborted) {
    w.begin_object();
    w.field("limit", r.aborted->limit);
    w.field("message", r.aborted->message);
    w.end_object();
  } else {
    w.null();
  }
  w.key("summary");  // the format's own writer (tensorgate/summary.hpp)
  if (r.summary) co_await r.summary.ops().write_json(c, r.summary.value(), options);
  else w.null();
}

}  // namespace

std::string_view tool_version() { return TENSORGATE_VERSION; }

void write_report_fields(JsonWriter& w, const Report& r, const ReportOptions& options) {
  detail::StepContext c{w};
  detail::run_to_end(report_field_steps(c, r, options));
}

struct ReportFieldsWriter::State {
  State(JsonWriter& w, const Report& report, const ReportOptions& report_options)
      : context{w}, options(report_options), steps(report_field_steps(context, report, options)) {}
  // Before steps: the writers hold references to both for as long as they run.
  detail::StepContext context;
  ReportOptions options;
  detail::Steps steps;
};

ReportFieldsWriter::ReportFieldsWriter(JsonWriter& w, const Report& report, const ReportOptions& options)
    : state_(std::make_unique<State>(w, report, options)) {}

ReportFieldsWriter::~ReportFieldsWriter() = default;

bool ReportFieldsWriter::resume(std::size_t piece_bytes) {
  State& s = *state_;
  if (s.steps.done()) return false;
  const std::uint64_t now = s.context.w.written();
  s.context.pause_at = piece_bytes > UINT64_MAX - now ? UINT64_MAX : now + piece_bytes;
  const std::coroutine_handle<> next = s.context.paused ? s.context.paused : s.steps.handle();
  s.context.paused = {};
  next.resume();
  return !s.steps.done();
}

std::string report_json(const Report& report, const ReportOptions& options) {
  std::string out;
  JsonWriter w([&out](std::string_view s) { out += s; });
  w.begin_object();
  write_report_fields(w, report, options);
  w.end_object();
  w.flush();
  return out;
}

void write_policy_identity(JsonWriter& w, const PolicyIdentity& policy) {
  w.key("policy");
  w.begin_object();
  w.field("name", policy.name);
  w.field("sha256", policy.sha256);
  w.end_object();
}

void write_json_report(std::span<const CheckedFile> files, const ReportOptions& options,
                       const JsonWriter::Sink& sink) {
  JsonWriter w(sink);
  w.begin_object();
  w.field("schema", kReportSchema);
  w.key("tool");
  w.begin_object();
  w.field("name", "tensorgate");
  w.field("version", tool_version());
  w.end_object();
  if (options.policy) write_policy_identity(w, *options.policy);
  w.key("files");
  w.begin_array();
  for (const CheckedFile& f : files) {
    w.begin_object();
    w.field("path", f.path);
    if (f.directory) {
      detail::write_directory_fields(w, *f.directory);
    } else if (f.audit) {
      detail::write_audit_fields(w, *f.audit);
    } else if (f.chat_template) {
      write_chat_template_report_fields(w, *f.chat_template);
    } else if (f.report) {
      write_report_fields(w, *f.report, options);
      w.key("error");
      w.null();
    } else {
      detail::write_entry_head(w, std::nullopt, false, 0, {}, 0);
      w.key("summary");
      w.null();
      w.field("error", f.error.value_or("unknown error"));
    }
    if (f.bytes_transferred) w.field("bytes_transferred", *f.bytes_transferred);
    w.end_object();
  }
  w.end_array();
  w.end_object();
  w.flush();
}

void write_rules_json(JsonWriter& w) {
  w.begin_object();
  w.field("schema", "tensorgate.rules/1");
  w.key("rules");
  w.begin_array();
  for (const RuleInfo& r : all_rules()) {
    w.begin_object();
    w.field("id", r.id);
    w.field("family", r.family);
    w.field("severity", severity_name(r.severity));
    w.field("title", r.title);
    w.field("help", rule_help(r.rule));
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

}  // namespace tensorgate
