#pragma once
// What the parts of one audit share: the inputs, the parsed config, the architecture, the
// findings (capped) and the report being built, and the read buffers.
#include <optional>
#include <string>
#include <string_view>

#include "common/finding_list.hpp"
#include "pairing/arch_table.hpp"
#include "pairing/model_config.hpp"
#include "pairing/pair_stream.hpp"
#include "tensorgate/audit.hpp"

namespace tensorgate::detail::audit {

using namespace pairing;  // the audit reads through the pairing room's decoders, name map and config

class AuditContext {
 public:
  AuditContext(const AuditInput& input, const Limits& all_limits)
      : in(input), limits(all_limits.audit), config_limits(all_limits.directory),
        findings(all_limits.max_findings), stream(all_limits.audit) {}

  void add(Rule rule, std::string message, std::optional<std::uint64_t> offset = std::nullopt,
           std::optional<std::string_view> tensor = std::nullopt) {
    findings.add(rule, std::move(message), offset, tensor);
  }
  void io_error(std::string what) {
    if (!report.io_error) report.io_error = std::move(what);
  }
  // Where a GGUF tensor's data starts in the file.
  std::uint64_t gguf_position(const GgufTensorView& t) const { return gguf->data_offset + t.offset; }

  const AuditInput& in;
  const AuditLimits& limits;
  const DirectoryLimits& config_limits;
  FindingList findings;
  AuditReport report;
  const ArchSpec* arch = nullptr;
  ModelConfig config;
  const GgufSummary* gguf = nullptr;
  PairStream stream;
};

}  // namespace tensorgate::detail::audit
