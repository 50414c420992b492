#include "format.hpp"

#include "common/number_text.hpp"

namespace tensorgate::detail::diff {

std::string signed_change(std::uint64_t before, std::uint64_t after) {
  return after >= before ? "+" + commas(after - before) : "-" + commas(before - after);
}

std::string tensor_text(const DiffTensor& t) { return t.dtype + " " + shape_text(t.shape); }

std::string kinds_text(ChangeSet kinds) {
  std::string out;
  for (const ChangeKindInfo& k : change_kinds())
    if (kinds.has(k.kind)) out += (out.empty() ? "" : ", ") + std::string(k.id);
  return out;
}

std::string values_text(const ValueDiff& v) {
  if (!v.compared) return "not compared: " + v.reason;
  const std::string where = v.scope == "common-rows" ? "rows in common: "
                            : v.scope == "flattened" ? "in element order: "
                                                     : "";
  if (v.identical) return where + "identical";
  if (v.changed == 0) return where + "equal values";
  const double fraction = v.elements ? static_cast<double>(v.changed) / static_cast<double>(v.elements) : 0;
  std::string out = where + general(100 * fraction, 3) + "% of " + commas(v.elements) + " elements changed";
  if (v.max_abs && v.changed > v.nonfinite)
    out += ", largest difference " + sci(*v.max_abs) + " (relative " + sci(v.max_rel.value_or(0)) + ")";
  if (v.nonfinite) out += ", " + commas(v.nonfinite) + " non-finite";
  return out;
}

std::string counts_text(const DiffReport& r) {
  std::string out;
  for (const ChangeKindInfo& k : change_kinds()) {
    const std::uint64_t n = r.counts[static_cast<std::size_t>(k.kind)];
    if (n) out += (out.empty() ? "" : ", ") + commas(n) + " " + std::string(k.id);
  }
  return out.empty() ? "none" : out;
}

std::string headline(const DiffReport& r) {
  if (r.invalid) return "not compared: " + *r.invalid;
  if (r.io_error) return "no result: " + *r.io_error;
  return commas(r.changes.size()) + (r.changes.size() == 1 ? " tensor" : " tensors") + " changed, " +
         commas(r.unchanged.size()) + " unchanged" +
         (r.values_compared ? " (values compared)" : " (headers only: values not compared, --values compares them)");
}

std::string gate_text(const DiffReport& r) {
  const std::string rule = r.fail_on.empty() ? "fails on nothing" : "fails on " + kinds_text(r.fail_on);
  if (r.io_error) return "no verdict (" + rule + ")";
  if (r.invalid) return "FAILED: an input is invalid (" + rule + ")";
  if (r.gate_failed) return "FAILED on " + kinds_text(r.failed) + " (" + rule + ")";
  return "passed (" + rule + ")";
}

std::string change_name(const TensorChange& c) {
  if (c.old_tensor && c.new_tensor && c.old_tensor->name != c.new_tensor->name)
    return c.old_tensor->name + " -> " + c.new_tensor->name;
  return c.new_tensor ? c.new_tensor->name : c.old_tensor->name;
}

}  // namespace tensorgate::detail::diff
