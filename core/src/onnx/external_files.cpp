// The directory rules of external data (OX.external-missing, OX.external-link,
// OX.external-short): the files an ONNX report names, judged by what the face that has the
// files found at each location.
#include "common/printable.hpp"
#include "tensorgate/onnx.hpp"
#include "tensorgate/report.hpp"

namespace tensorgate {
namespace {

std::optional<Finding> judge(const OnnxExternalFile& file, const ExternalFileFacts& facts) {
  const std::string name = "external data file " + detail::quoted(file.location);
  const auto finding = [&](Rule rule, std::string message) {
    return Finding{rule, rule_info(rule).severity, std::move(message), std::nullopt,
                   file.farthest_tensor.empty() ? std::nullopt : std::optional<std::string>(file.farthest_tensor)};
  };
  switch (facts.kind) {
    case ExternalFileFacts::Kind::missing:
      return finding(Rule::ox_external_missing, name + " is not in the model's directory");
    case ExternalFileFacts::Kind::not_regular:
      return finding(Rule::ox_external_missing, name + " is not a regular file (a directory, a device or a pipe)");
    case ExternalFileFacts::Kind::symlink:
      return finding(Rule::ox_external_link, name + " is, or lies behind, a symbolic link: onnx would read wherever it points");
    case ExternalFileFacts::Kind::regular: break;
  }
  if (facts.links > 1)
    return finding(Rule::ox_external_link, name + " is a hard link (" + std::to_string(facts.links) +
                                               " names): it may be a file from outside the model's directory");
  if (facts.size < file.bytes_needed)
    return finding(Rule::ox_external_short, name + " holds " + std::to_string(facts.size) + " bytes; its tensors read up to byte " +
                                                std::to_string(file.bytes_needed));
  return std::nullopt;
}

}  // namespace

void check_external_files(Report& report, const ExternalFileLookup& lookup, const Limits& limits) {
  const OnnxSummary* summary = report.summary.get<OnnxSummary>();
  if (!summary || report.aborted) return;
  for (const OnnxExternalFile& file : summary->external_files) {
    std::optional<Finding> f = judge(file, lookup(file.location));
    if (!f) continue;
    report.valid = false;
    if (report.findings.size() < limits.max_findings) report.findings.push_back(std::move(*f));
    else ++report.findings_dropped;
  }
}

}  // namespace tensorgate
