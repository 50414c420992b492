#pragma once
// The pieces of a SARIF 2.1.0 log that every tensorgate document shares (`check` and `audit`
// through write_sarif_report, `diff` through write_diff_sarif): levels, artifact URIs, the
// driver with its rules, one result.
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tensorgate/finding.hpp"
#include "tensorgate/json_writer.hpp"
#include "tensorgate/policy.hpp"

namespace tensorgate::detail {

std::string_view sarif_level(Severity s);

// A relative path or file name as a URI reference: unreserved bytes and '/' stay, the rest is
// percent-encoded; absolute paths become file:// URIs.
std::string sarif_uri(std::string_view path);

// A rule the driver lists after the catalogue's (the diff's change kinds).
struct SarifDescriptor {
  std::string_view id, title, help, level, family;
};
// tool.driver: name, versions, and the rules: the whole catalogue (ruleIndex = the Rule's
// value), then `extra` (ruleIndex = the catalogue's size + its position).
void write_sarif_driver(JsonWriter& w, std::span<const SarifDescriptor> extra = {});

struct SarifResult {
  std::string_view rule_id;
  std::uint64_t rule_index = 0;
  std::string_view level;
  std::string message;
  std::string_view uri;
  std::size_t artifact = 0;
  std::optional<std::uint64_t> offset;  // a byte region of one byte there
};
void write_sarif_result(JsonWriter& w, const SarifResult& r);
// A finding as a result against artifact `artifact`.
void write_sarif_finding(JsonWriter& w, const Finding& f, std::string_view uri, std::size_t artifact);

struct SarifArtifact {
  std::string uri;                      // sarif_uri(path)
  std::optional<std::uint64_t> length;  // bytes, when known
};
// What a log's one run says beside its results.
struct SarifRun {
  std::span<const SarifDescriptor> extra_rules;  // after the catalogue's (write_sarif_driver)
  bool successful = true;                        // invocations[0].executionSuccessful
  std::vector<std::string> notifications;        // errors of the run, one toolExecutionNotification each
  std::vector<SarifArtifact> artifacts;
  std::optional<PolicyIdentity> policy;          // the run's properties.policy, when one is in force
};
// The whole log, the same frame for every tensorgate document: $schema, version, one run with
// its tool, invocation and artifacts; `results` writes the results array's items.
void write_sarif_log(const JsonWriter::Sink& sink, const SarifRun& run,
                     const std::function<void(JsonWriter&)>& results);

}  // namespace tensorgate::detail
