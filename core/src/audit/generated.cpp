#include "generated.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

#include "common/printable.hpp"
#include "pairing/numbers.hpp"
#include "rope.hpp"
#include "common/number_text.hpp"

namespace tensorgate::detail::audit {
namespace {

AuditTensor gguf_row(const GgufTensorView& g) {
  AuditTensor row;
  row.gguf = std::string(g.name);
  row.gguf_type = std::string(ggml_type_info(g.type)->name);
  row.shape.assign(g.shape.rbegin(), g.shape.rend());
  row.gguf_bytes = g.bytes;
  return row;
}

// The stored factors against the formula, read in small pieces. Returns the differing count.
std::uint64_t compare_rope(AuditContext& ctx, const GgufTensorView& g, std::uint64_t head_dim, std::string& first) {
  const RopeScaling& s = *ctx.config.rope_scaling;
  const double theta = ctx.config.rope_theta ? ctx.config.rope_theta->value : 10000.0;
  std::vector<std::byte> buf(std::min<std::uint64_t>(g.bytes, 1 << 14));
  std::uint64_t differing = 0;
  for (std::uint64_t i = 0; i < head_dim / 2;) {
    const std::uint64_t n = std::min<std::uint64_t>(head_dim / 2 - i, buf.size() / 4);
    if (!ctx.in.gguf_bytes->read(ctx.gguf_position(g) + 4 * i, std::span(buf.data(), n * 4))) {
      ctx.io_error("cannot read the GGUF file: it changed or a read failed");
      return differing;
    }
    ctx.report.bytes_read += n * 4;
    for (std::uint64_t j = 0; j < n; ++j, ++i) {
      const float v = static_cast<float>(f32_value(buf.data() + 4 * j));
      if (rope_factor_matches(v, s, theta, head_dim, i)) continue;
      if (differing++ == 0)
        first = "factor " + std::to_string(i) + " (k = " + std::to_string(2 * i) + ") is " + exact(v) + ", llama3 scaling gives " +
                exact(static_cast<float>(llama3_factor(s, theta, head_dim, i)));
    }
  }
  return differing;
}

}  // namespace

bool wants_llama3_rope(const ModelConfig& c) {
  if (!c.rope_scaling) return false;
  std::string t = c.rope_scaling->type;
  std::transform(t.begin(), t.end(), t.begin(), [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return t == "llama3";
}

void audit_generated(AuditContext& ctx, const PlanEntry& e) {
  const GgufTensorView g = (*ctx.gguf->tensors)[e.gguf];
  AuditTensor row = gguf_row(g);
  row.transform = "generated (llama3 RoPE factors)";
  row.verdict = AuditVerdict::wrong;
  const auto fail = [&](std::string why, std::optional<std::uint64_t> at) {
    ctx.add(Rule::au_rope_freqs, std::move(why), at, g.name);
    ctx.report.tensors.push_back(std::move(row));
  };
  if (!wants_llama3_rope(ctx.config))
    return fail("present although config.json's rope_scaling is not of rope_type llama3", ctx.gguf_position(g));
  const std::uint64_t head_dim = ctx.config.integer(ConfigField::head_dim).value_or(0);
  if (auto problem = rope_scaling_problem(*ctx.config.rope_scaling, head_dim); problem || head_dim > ctx.limits.max_head_dim) {
    ctx.add(Rule::au_config, problem.value_or("head_dim " + std::to_string(head_dim) + " is beyond the audit's limit") +
                                 ": rope_freqs.weight is not compared");
    row.verdict = AuditVerdict::not_compared;
    return ctx.report.tensors.push_back(std::move(row));
  }
  const std::vector<std::uint64_t> want{head_dim / 2};
  if (g.type != kGgmlF32 || row.shape != want)
    return fail("is " + row.gguf_type + " " + shape_text(row.shape) + ", not F32 " + shape_text(want) +
                    " (one factor per frequency of head_dim " + std::to_string(head_dim) + ")",
                ctx.gguf_position(g));
  std::string first;
  row.differing = compare_rope(ctx, g, head_dim, first);
  if (ctx.report.io_error) return ctx.report.tensors.push_back(std::move(row));
  if (row.differing)
    return fail(std::to_string(row.differing) + " of " + std::to_string(head_dim / 2) + " factors differ: " + first,
                ctx.gguf_position(g));
  row.verdict = AuditVerdict::generated;
  ctx.report.tensors.push_back(std::move(row));
}

void audit_unexplained(AuditContext& ctx, const PlanEntry& e) {
  const GgufTensorView g = (*ctx.gguf->tensors)[e.gguf];
  AuditTensor row = gguf_row(g);
  row.verdict = AuditVerdict::unexplained;
  ctx.add(Rule::au_unexplained_tensor,
          "no source tensor maps to it and the configuration does not call for it (" + row.gguf_type + " " +
              shape_text(row.shape) + ")",
          ctx.gguf_position(g), g.name);
  ctx.report.tensors.push_back(std::move(row));
}

void audit_left_over(AuditContext& ctx, const Plan& plan) {
  const auto source_row = [](const LeftOver& m, AuditVerdict v) {
    AuditTensor row;
    row.source = std::string(m.source.view.name);
    row.gguf = m.gguf;
    row.source_dtype = std::string(dtype_info(m.source.view.dtype).name);
    row.shape.assign(m.source.view.shape.begin(), m.source.view.shape.end());
    row.source_bytes = m.source.view.end - m.source.view.begin;
    row.verdict = v;
    return row;
  };
  for (const LeftOver& m : plan.missing) {
    ctx.add(Rule::au_missing_tensor,
            "the GGUF has no " + quoted(m.gguf, 80) + ", the counterpart of " + quoted(m.source.view.name, 80) + " (" +
                m.source.file->name + ")",
            std::nullopt, m.gguf);
    ctx.report.tensors.push_back(source_row(m, AuditVerdict::missing));
  }
  for (const LeftOver& m : plan.unmapped) {
    ctx.add(Rule::au_unmapped_tensor,
            quoted(m.source.view.name, 80) + " (" + m.source.file->name + ") has no GGUF name in the " +
                std::string(ctx.arch->model_type) + " table: not compared",
            std::nullopt, m.source.view.name);
    ctx.report.tensors.push_back(source_row(m, AuditVerdict::unmapped));
  }
  const bool has_rope = std::any_of(plan.entries.begin(), plan.entries.end(),
                                    [](const PlanEntry& e) { return e.kind == EntryKind::generated; });
  if (wants_llama3_rope(ctx.config) && !has_rope) {
    ctx.add(Rule::au_rope_freqs, "missing: config.json's rope_scaling is llama3, which the converter stores as rope_freqs.weight",
            std::nullopt, "rope_freqs.weight");
    AuditTensor row;
    row.gguf = "rope_freqs.weight";
    row.transform = "generated (llama3 RoPE factors)";
    row.verdict = AuditVerdict::missing;
    ctx.report.tensors.push_back(std::move(row));
  }
}

}  // namespace tensorgate::detail::audit
