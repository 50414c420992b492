// SARIF 2.1.0: the rule catalogue as tool.driver.rules and each finding's byte offset as a
// region, so a code-scanning page can list and locate findings.
#include <string>

#include "report/sarif_parts.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate {
namespace {

using detail::sarif_uri;

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
  detail::write_sarif_driver(w);
  w.end_object();
  w.key("invocations");
  write_invocation(w, files);
  w.key("artifacts");
  w.begin_array();
  for (const CheckedFile& f : files) {
    w.begin_object();
    w.key("location");
    w.begin_object();
    w.field("uri", sarif_uri(f.path));
    w.end_object();
    if (f.report) w.field("length", f.report->bytes_seen);
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
                             : nullptr;
    if (!findings) continue;
    const std::string uri = sarif_uri(files[i].path);
    for (const Finding& f : *findings) detail::write_sarif_finding(w, f, uri, i);
  }
  w.end_array();
  w.end_object();
  w.end_array();
  w.end_object();
  w.flush();
}

}  // namespace tensorgate
