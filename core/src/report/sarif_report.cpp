// SARIF 2.1.0: the rule catalogue as tool.driver.rules and each finding's byte offset as a
// region, so a code-scanning page can list and locate findings.
#include <string>

#include "report/sarif_parts.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate {

using detail::sarif_uri;

void write_sarif_report(std::span<const CheckedFile> files, const ReportOptions& options,
                        const JsonWriter::Sink& sink) {
  detail::SarifRun run;
  run.policy = options.policy;
  for (const CheckedFile& f : files) {
    if (f.error) {
      run.successful = false;
      run.notifications.push_back(f.path + ": " + *f.error);
    }
    std::optional<std::uint64_t> length;
    if (f.report) length = f.report->bytes_seen;
    if (f.chat_template) length = f.chat_template->bytes;
    run.artifacts.push_back({sarif_uri(f.path), length});
  }
  detail::write_sarif_log(sink, run, [&](JsonWriter& w) {
    for (std::size_t i = 0; i < files.size(); ++i) {
      const std::vector<Finding>* findings =
          files[i].report          ? &files[i].report->findings
          : files[i].directory     ? &files[i].directory->findings
          : files[i].audit         ? &files[i].audit->findings
          : files[i].chat_template ? &files[i].chat_template->findings
                                   : nullptr;
      if (!findings) continue;
      const std::string uri = sarif_uri(files[i].path);
      for (const Finding& f : *findings) detail::write_sarif_finding(w, f, uri, i);
    }
  });
}

}  // namespace tensorgate
