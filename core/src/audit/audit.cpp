// The audit's course: inputs, config and architecture, the plan, every GGUF tensor in data
// order, what is left over, the metadata, the accounting.
#include "tensorgate/audit.hpp"

#include "accounting.hpp"
#include "generated.hpp"
#include "metadata_check.hpp"
#include "pairs.hpp"

namespace tensorgate {
namespace detail::audit {
namespace {

std::string first_errors(const std::vector<Finding>& findings) {
  std::string ids;
  unsigned n = 0;
  for (const Finding& f : findings) {
    if (f.severity != Severity::error) continue;
    if (n++ < 3) ids += (ids.empty() ? "" : ", ") + std::string(rule_info(f.rule).id);
  }
  return ids.empty() ? "" : " (" + ids + (n > 3 ? ", ..." : "") + ")";
}

// A directory whose only errors are AR's (config.json against the tensor inventory) still has
// valid, complete files: the audit goes on, and says what else disagrees with the config.
bool only_inventory_errors(const DirectoryReport& d) {
  for (const Finding& f : d.findings)
    if (f.severity == Severity::error && rule_info(f.rule).family != "AR") return false;
  return true;
}

bool inputs_valid(AuditContext& ctx) {
  const AuditInput& in = ctx.in;
  bool ok = true;
  if (in.directory && !in.directory->valid) {
    ctx.add(Rule::au_source_invalid, "the source model directory is invalid" + first_errors(in.directory->findings));
    ok = only_inventory_errors(*in.directory);
  }
  if (in.sources.empty()) ctx.add(Rule::au_source_invalid, "the source has no weights files"), ok = false;
  for (const AuditSource& s : in.sources) {
    const SafetensorsSummary* st = s.report ? s.report->summary.get<SafetensorsSummary>() : nullptr;
    if (st && s.report->valid && st->tensors && s.bytes) continue;
    ctx.add(Rule::au_source_invalid, s.name + " is not a valid safetensors file" + (s.report ? first_errors(s.report->findings) : ""));
    ok = false;
  }
  const GgufSummary* gguf = in.gguf ? in.gguf->summary.get<GgufSummary>() : nullptr;
  if (!gguf || !in.gguf->valid || !gguf->tensors || !in.gguf_bytes) {
    ctx.add(Rule::au_target_invalid, "the GGUF file is invalid" + (in.gguf ? first_errors(in.gguf->findings) : ""));
    return false;
  }
  ctx.gguf = gguf;
  return ok;
}

bool read_config(AuditContext& ctx) {
  if (!ctx.in.config_json) return ctx.add(Rule::au_config, "the source has no config.json"), false;
  ParsedConfig parsed = parse_model_config(*ctx.in.config_json, ctx.config_limits);
  if (!parsed.config) return ctx.add(Rule::au_config, parsed.error), false;
  ctx.config = std::move(*parsed.config);
  ctx.arch = find_architecture(ctx.config.model_type, ctx.config.class_name);
  if (!ctx.arch) {
    ctx.add(Rule::au_architecture, "config.json's model_type " + std::string(ctx.config.model_type.empty() ? "(none)" : ctx.config.model_type) +
                                       " has no entry in the audit's architecture table (llama)");
    return false;
  }
  ctx.report.architecture = std::string(ctx.arch->model_type);
  if (!ctx.config.integer(ConfigField::heads) || !ctx.config.integer(ConfigField::kv_heads))
    return ctx.add(Rule::au_config, "config.json lacks num_attention_heads, which the q/k permutation needs"), false;
  return true;
}

void run_plan(AuditContext& ctx, const Plan& plan) {
  for (const PlanEntry& e : plan.entries) {
    if (ctx.report.io_error) return;
    switch (e.kind) {
      case EntryKind::pair: audit_pair(ctx, e); break;
      case EntryKind::generated: audit_generated(ctx, e); break;
      case EntryKind::unexplained: audit_unexplained(ctx, e); break;
    }
  }
  audit_left_over(ctx, plan);
}

}  // namespace
}  // namespace detail::audit

std::string_view audit_verdict_name(AuditVerdict v) {
  switch (v) {
    case AuditVerdict::exact: return "exact";
    case AuditVerdict::within: return "within";
    case AuditVerdict::beyond: return "beyond";
    case AuditVerdict::mismatch: return "mismatch";
    case AuditVerdict::shape: return "shape";
    case AuditVerdict::dtype: return "dtype";
    case AuditVerdict::not_compared: return "not-compared";
    case AuditVerdict::generated: return "generated";
    case AuditVerdict::wrong: return "wrong";
    case AuditVerdict::missing: return "missing";
    case AuditVerdict::unexplained: return "unexplained";
    case AuditVerdict::unmapped: return "unmapped";
  }
  return "exact";
}

AuditReport audit_conversion(const AuditInput& input, const Limits& limits) {
  using namespace detail::audit;
  AuditContext ctx(input, limits);
  ctx.report.bytes.gguf_file_bytes = input.gguf_file_size;
  const bool inputs = inputs_valid(ctx);
  if (inputs && read_config(ctx)) {
    const Plan plan = make_plan(ctx);
    run_plan(ctx, plan);
    if (!ctx.report.io_error) {
      check_metadata(ctx);
      account_bytes(ctx);
    }
  }
  AuditReport r = std::move(ctx.report);
  r.bytes_read += ctx.stream.bytes_read();
  count_verdicts(r);
  r.findings = ctx.findings.items();
  r.findings_dropped = ctx.findings.dropped();
  r.faithful = !ctx.findings.has_errors() && !r.io_error;
  return r;
}

}  // namespace tensorgate
