#include "pairs.hpp"

#include <algorithm>

#include "common/printable.hpp"
#include "compare.hpp"
#include "pairing/permute.hpp"
#include "common/number_text.hpp"

namespace tensorgate::detail::audit {
namespace {

// GGUF lists ne0 (the innermost dimension) first; a source scalar is a GGUF [1].
bool same_shape_reversed(std::span<const std::uint64_t> source, std::span<const std::uint64_t> gguf) {
  if (source.empty()) return gguf.size() <= 1 && (gguf.empty() || gguf[0] == 1);
  return std::equal(source.begin(), source.end(), gguf.rbegin(), gguf.rend());
}

std::uint64_t heads_for(const AuditContext& ctx, RowOrder order) {
  if (order == RowOrder::as_is) return 0;
  return ctx.config.integer(order == RowOrder::rope_q ? ConfigField::heads : ConfigField::kv_heads).value_or(0);
}

std::string transform_text(Mode mode, std::string_view from, std::string_view to, RowOrder order, std::uint64_t heads) {
  std::string t;
  switch (mode) {
    case Mode::bytes: t = "kept " + std::string(to); break;
    case Mode::widen: t = std::string(from) + "->" + std::string(to) + " widened"; break;
    case Mode::lossy: t = std::string(from) + "->" + std::string(to) + " lossy"; break;
    case Mode::not_compared:
    case Mode::dtype_error: t = std::string(from) + "->" + std::string(to); break;
  }
  if (order != RowOrder::as_is)
    t += std::string(order == RowOrder::rope_q ? ", q" : ", k") + " rows permuted (" + std::to_string(heads) + " heads)";
  return t;
}

struct Streamed {
  bool ok = false;
  CompareStats stats;
};

Streamed stream_values(AuditContext& ctx, const SourceTensor& s, const GgufTensorView& g, Mode mode,
                       std::uint64_t heads) {
  const GgmlTypeInfo* info = ggml_type_info(g.type);
  PairLayout l;
  l.source_offset = s.position;
  l.gguf_offset = ctx.gguf_position(g);
  std::uint64_t elements = 1;
  for (const std::uint64_t d : s.view.shape) elements *= d;  // exact: ST4 checked the product
  // Rows matter only where they move; otherwise the tensor is one run, read in whole chunks.
  l.rows = heads && !s.view.shape.empty() ? s.view.shape[0] : 1;
  l.cols = l.rows ? elements / l.rows : 0;
  l.heads = heads;
  l.source_size = dtype_info(s.view.dtype).bits / 8;
  l.block = info->block_size;
  l.block_bytes = info->type_size;
  Comparator cmp(mode, s.view.dtype, g.type);
  Streamed out;
  out.ok = ctx.stream.run(*s.file->bytes, *ctx.in.gguf_bytes, l,
                          [&](const Piece& p) { cmp.run(p.source, p.gguf, p.n, p.first); });
  out.stats = cmp.stats();
  if (!out.ok) ctx.io_error("cannot read " + s.file->name + " or the GGUF file: they changed or a read failed");
  return out;
}

std::string first_text(const FirstDifference& d, Mode mode, const SourceTensor& s, std::uint64_t cols) {
  std::string t = "element " + std::to_string(d.index);
  if (cols && s.view.shape.size() >= 2)
    t += " (GGUF row " + std::to_string(d.index / cols) + ", column " + std::to_string(d.index % cols) + ")";
  if (mode == Mode::bytes) {
    const unsigned size = dtype_info(s.view.dtype).bits / 8;
    return t + ": source " + hex(d.source_bits, size) + ", GGUF " + hex(d.gguf_bits, size);
  }
  return t + ": source " + exact(d.source_value) + ", GGUF " + exact(d.gguf_value);
}

void report_exact(AuditContext& ctx, const PlanEntry& e, const GgufTensorView& g, Mode mode, std::uint64_t heads,
                  const CompareStats& st, AuditTensor& row) {
  if (st.differing == 0) return;
  row.verdict = AuditVerdict::mismatch;
  const SourceTensor& s = *e.source;
  std::uint64_t row_len = 1;
  for (std::size_t i = 1; i < s.view.shape.size(); ++i) row_len *= s.view.shape[i];
  std::string msg = std::to_string(st.differing) + (st.differing == 1 ? " element differs" : " elements differ") +
                    " from " + quoted(s.view.name, 80);
  msg += heads ? " (after the converter's q/k row permutation)" : "";
  msg += "; the first is " + first_text(*st.first, mode, s, row_len);
  if (heads) {
    const Streamed plain = stream_values(ctx, s, g, mode, 0);
    if (plain.ok && plain.stats.differing == 0)
      msg += "; the rows equal the source's unpermuted: the converter's q/k permutation was not applied";
  }
  const GgmlTypeInfo* info = ggml_type_info(g.type);
  ctx.add(Rule::au_value_mismatch, msg, ctx.gguf_position(g) + st.first->index / info->block_size * info->type_size, g.name);
}

void report_lossy(AuditContext& ctx, const GgufTensorView& g, const Threshold& th, const CompareStats& st,
                  AuditTensor& row) {
  row.max_abs_error = st.max_abs;
  row.max_rel_error = st.max_rel;
  const std::string errors = "largest error " + sci(st.max_abs) + " absolute, " + sci(st.max_rel) +
                             (th.block_relative ? " relative to the block's largest magnitude" : " relative");
  if (st.differing == 0) {
    row.verdict = AuditVerdict::within;
    ctx.add(Rule::au_lossy, row.source_dtype + " -> " + row.gguf_type + ": " + errors + ", within " + row.gguf_type +
                                "'s threshold", std::nullopt, g.name);
    return;
  }
  row.verdict = AuditVerdict::beyond;
  const GgmlTypeInfo* info = ggml_type_info(g.type);
  ctx.add(Rule::au_lossy_threshold,
          std::to_string(st.differing) + (st.differing == 1 ? " element" : " elements") + " beyond " + row.gguf_type +
              "'s threshold (" + std::string(th.why) +
              "); the first is element " +
              std::to_string(st.first->index) + ": source " + exact(st.first->source_value) + ", GGUF " +
              exact(st.first->gguf_value) + "; " + errors,
          ctx.gguf_position(g) + st.first->index / info->block_size * info->type_size, g.name);
}

// What the types allow: false when the values are not compared (the row says why).
bool check_types(AuditContext& ctx, const GgufTensorView& g, Mode mode, AuditTensor& row) {
  if (mode == Mode::dtype_error) {
    row.verdict = AuditVerdict::dtype;
    ctx.add(Rule::au_dtype, row.source_dtype + " stored as " + row.gguf_type + " is not a conversion of its values",
            ctx.gguf_position(g), g.name);
    return false;
  }
  const char* why = mode == Mode::not_compared ? "the audit does not decode this pairing of types"
                    : ctx.gguf->big_endian     ? "the GGUF is big-endian"
                                               : nullptr;
  if (!why) return true;
  row.verdict = AuditVerdict::not_compared;
  ctx.add(Rule::au_not_compared, row.source_dtype + " -> " + row.gguf_type + " not compared: " + why, std::nullopt, g.name);
  return false;
}

}  // namespace

void audit_pair(AuditContext& ctx, const PlanEntry& e) {
  const GgufTensorView g = (*ctx.gguf->tensors)[e.gguf];
  const SourceTensor& s = *e.source;
  AuditTensor row;
  row.source = std::string(s.view.name);
  row.gguf = std::string(g.name);
  row.source_dtype = std::string(dtype_info(s.view.dtype).name);
  row.gguf_type = std::string(ggml_type_info(g.type)->name);
  row.shape.assign(s.view.shape.begin(), s.view.shape.end());
  row.source_bytes = s.view.end - s.view.begin;
  row.gguf_bytes = g.bytes;
  const Mode mode = choose_mode(s.view.dtype, g.type);
  const std::uint64_t heads = heads_for(ctx, e.order);
  row.transform = transform_text(mode, row.source_dtype, row.gguf_type, e.order, heads);
  std::vector<std::uint64_t> reversed(g.shape.rbegin(), g.shape.rend());
  if (!same_shape_reversed(s.view.shape, g.shape)) {
    row.verdict = AuditVerdict::shape;
    ctx.add(Rule::au_shape, "GGUF shape " + shape_text(g.shape) + " reversed is " + shape_text(reversed) + ", the source " +
                                quoted(s.view.name, 80) + " is " + shape_text(s.view.shape), ctx.gguf_position(g), g.name);
  } else if (e.order != RowOrder::as_is && !permutable_rows(row.shape.empty() ? 1 : row.shape[0], heads)) {
    row.verdict = AuditVerdict::shape;
    ctx.add(Rule::au_shape, std::to_string(row.shape.empty() ? 1 : row.shape[0]) + " rows do not split into " +
                                std::to_string(heads) + " heads of an even number of rows for the q/k permutation",
            ctx.gguf_position(g), g.name);
  } else if (check_types(ctx, g, mode, row)) {
    const Streamed r = stream_values(ctx, s, g, mode, heads);
    if (r.ok && mode == Mode::lossy) report_lossy(ctx, g, *lossy_threshold(g.type), r.stats, row);
    else if (r.ok) report_exact(ctx, e, g, mode, heads, r.stats, row);
    row.differing = r.stats.differing;
  }
  ctx.report.tensors.push_back(std::move(row));
}

}  // namespace tensorgate::detail::audit
