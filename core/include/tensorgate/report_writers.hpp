#pragma once
// The report formats every face shares: JSON (schema tensorgate.report/1, docs/report.schema.json),
// SARIF 2.1.0 for code-scanning pages, and short aligned text for people.
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "tensorgate/audit.hpp"
#include "tensorgate/json_writer.hpp"
#include "tensorgate/limits.hpp"
#include "tensorgate/model_dir.hpp"
#include "tensorgate/policy.hpp"
#include "tensorgate/report.hpp"

namespace tensorgate {

inline constexpr std::string_view kReportSchema = "tensorgate.report/1";
std::string_view tool_version();

// One checked path: a file's report, a model directory's cross-file report, a conversion
// audit (path: the GGUF; format "conversion-audit"), a chat template file's report (format
// "chat-template"), or the reason there is none (I/O error).
struct CheckedFile {
  std::string path;
  std::optional<Report> report;
  std::optional<std::string> error;
  std::optional<DirectoryReport> directory = std::nullopt;
  std::optional<AuditReport> audit = std::nullopt;
  std::optional<ChatTemplateFileReport> chat_template = std::nullopt;
  // A remote check's bytes off the network: every response for this entry (heads, bodies,
  // redirects, retries). Unset for local files.
  std::optional<std::uint64_t> bytes_transferred = std::nullopt;
};

struct ReportOptions {
  bool include_tensors = true;  // the inventory in summary.tensors
  bool colour = false;          // text only: ANSI colours
  ReportLimits limits{};        // what the report may echo of the file
  // The policy in force (tensorgate/policy.hpp): the document names it (JSON `policy`, SARIF
  // run properties, a text line). Unset, the report is what it was before policies.
  std::optional<PolicyIdentity> policy = std::nullopt;
};

// The fields of one file's report object (without the braces), for callers that add fields.
void write_report_fields(JsonWriter& w, const Report& report, const ReportOptions& options);

// The same fields written a piece at a time, for a face that sends a large report as it is
// written (the service's streamed answers) rather than building it whole. Each resume() writes
// on until at least `piece_bytes` more have gone into the writer (whole list items: a piece
// may be a little longer), or to the end; the caller takes what the writer's sink got. The
// report and the writer must outlive this object (the options are copied). The output is
// write_report_fields' own.
class ReportFieldsWriter {
 public:
  ReportFieldsWriter(JsonWriter& w, const Report& report, const ReportOptions& options);
  ~ReportFieldsWriter();
  ReportFieldsWriter(const ReportFieldsWriter&) = delete;
  ReportFieldsWriter& operator=(const ReportFieldsWriter&) = delete;
  // Writes on; false once every field is written (and then again without writing).
  bool resume(std::size_t piece_bytes);

 private:
  struct State;
  std::unique_ptr<State> state_;
};
// `"policy": {"name", "sha256"}`: the policy in force, as every document that has one names it.
void write_policy_identity(JsonWriter& w, const PolicyIdentity& policy);
// One finding as a JSON object ({"rule", "severity", "message", "offset", "tensor"}).
void write_finding(JsonWriter& w, const Finding& f);
// One file's report as a JSON object: equal texts mean equal reports (tests, fuzzers).
std::string report_json(const Report& report, const ReportOptions& options = {});

void write_json_report(std::span<const CheckedFile> files, const ReportOptions& options,
                       const JsonWriter::Sink& sink);
void write_sarif_report(std::span<const CheckedFile> files, const ReportOptions& options,
                        const JsonWriter::Sink& sink);
void write_text_report(std::span<const CheckedFile> files, const ReportOptions& options,
                       const JsonWriter::Sink& sink);

// The fields of a chat template file's entry (format "chat-template"), without the braces.
void write_chat_template_report_fields(JsonWriter& w, const ChatTemplateFileReport& report);

// The fields of a model directory's entry (format "model-directory"), without the braces.
void write_directory_report_fields(JsonWriter& w, const DirectoryReport& report);

// The rule catalogue as JSON (GET /v1/rules, docs).
void write_rules_json(JsonWriter& w);

}  // namespace tensorgate
