// The SavedModel facts of the text report: ", saved_model, 1 meta graph (serve), 2 signatures,
// 14 nodes, 3 functions (40 nodes), 1 dangerous op (ReadFile)" or ", keras_metadata, 5 objects".
#include "common/printable.hpp"
#include "common/text_counts.hpp"
#include "savedmodel/report_writers.hpp"

namespace tensorgate::detail {

std::string savedmodel_text_facts(const SavedModelSummary& s) {
  std::string line = ", " + s.file;
  if (s.file == "keras_metadata") return line + ", " + plural(s.keras_objects, "object");
  // Tags are the file's own bytes: escaped, and a few of them at most.
  constexpr std::size_t kMaxTags = 4, kMaxTagBytes = 40;
  std::uint64_t signatures = s.signatures_not_listed;
  std::string tags;
  std::size_t shown = 0;
  for (const SavedModelMetaGraph& g : s.meta_graphs) {
    signatures += g.signatures.size();
    for (const std::string& t : g.tags)
      if (shown++ < kMaxTags) tags += (tags.empty() ? "" : " ") + printable(t.substr(0, kMaxTagBytes));
  }
  if (shown > kMaxTags) tags += " ...";
  line += ", " + plural(s.meta_graphs.size() + s.meta_graphs_not_listed, "meta graph");
  if (!tags.empty()) line += " (" + tags + ")";
  line += ", " + plural(signatures, "signature") + ", " + plural(s.nodes, "node");
  if (s.functions) line += ", " + plural(s.functions, "function") + " (" + plural(s.function_nodes, "node") + ")";
  if (!s.dangerous_ops.empty()) {
    std::string ops;
    for (const SavedModelDangerousOp& d : s.dangerous_ops) ops += (ops.empty() ? "" : " ") + d.op;
    line += ", " + plural(s.dangerous_ops.size(), "dangerous op") + " (" + ops + ")";
  }
  return line;
}

}  // namespace tensorgate::detail
