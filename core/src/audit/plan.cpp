#include "plan.hpp"

#include <algorithm>
#include <boost/unordered/unordered_flat_map.hpp>

namespace tensorgate::detail::audit {
namespace {

using NameIndex = boost::unordered_flat_map<std::string_view, std::size_t>;

NameIndex gguf_names(const GgufTensorTable& table) {
  NameIndex index;
  index.reserve(table.size());
  for (std::size_t i = 0; i < table.size(); ++i) index.emplace(table[i].name, i);
  return index;
}

const GeneratedRule* generated_rule(const ArchSpec& arch, std::string_view name) {
  for (const GeneratedRule& g : arch.generated)
    if (g.name == name) return &g;
  return nullptr;
}

}  // namespace

Plan make_plan(AuditContext& ctx) {
  Plan plan;
  const GgufTensorTable& table = *ctx.gguf->tensors;
  const NameIndex index = gguf_names(table);
  std::vector<bool> paired(table.size(), false);
  std::vector<std::optional<SourceTensor>> by_gguf(table.size());
  std::vector<RowOrder> orders(table.size(), RowOrder::as_is);
  for (const AuditSource& file : ctx.in.sources) {
    const SafetensorsSummary& s = *file.report->summary.get<SafetensorsSummary>();
    for (std::size_t i = 0; i < s.tensors->size(); ++i) {
      const TensorView v = (*s.tensors)[i];
      const SourceTensor st{&file, v, 8 + s.header_length + v.begin};
      const auto mapped = map_name(*ctx.arch, v.name);
      if (!mapped) {
        plan.unmapped.push_back(LeftOver{st, {}});
        continue;
      }
      const auto it = index.find(mapped->gguf);
      if (it == index.end() || paired[it->second]) {
        plan.missing.push_back(LeftOver{st, mapped->gguf});
        continue;
      }
      paired[it->second] = true;
      by_gguf[it->second] = st;
      orders[it->second] = mapped->order;
    }
  }
  for (std::size_t i = 0; i < table.size(); ++i) {
    PlanEntry e;
    e.gguf = i;
    if (paired[i]) {
      e.source = by_gguf[i];
      e.order = orders[i];
    } else if ((e.generated = generated_rule(*ctx.arch, table[i].name))) {
      e.kind = EntryKind::generated;
    } else {
      e.kind = EntryKind::unexplained;
    }
    plan.entries.push_back(std::move(e));
  }
  // Read the GGUF in data order: one pass, in order, whatever order its infos are in.
  std::stable_sort(plan.entries.begin(), plan.entries.end(),
                   [&](const PlanEntry& a, const PlanEntry& b) { return table[a.gguf].offset < table[b.gguf].offset; });
  return plan;
}

}  // namespace tensorgate::detail::audit
