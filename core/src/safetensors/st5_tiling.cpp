// ST5: sorted by (begin, end), the tensors tile the data buffer exactly.
#include "safetensors/st5_tiling.hpp"

#include <algorithm>
#include <string>

#include "common/huge_pages.hpp"
#include "safetensors/table_builder.hpp"

namespace tensorgate::detail {

bool canonical_less(const TensorTable& table, std::uint32_t a, std::uint32_t b) {
  const auto& ra = table.record(a);
  const auto& rb = table.record(b);
  if (ra.dtype != rb.dtype) return ra.dtype < rb.dtype;
  return table.str(ra.name) < table.str(rb.name);
}

std::optional<std::uint64_t> check_tiling(TensorTable& table, FindingList& findings,
                                          std::uint64_t data_start) {
  auto by_offsets = [&](std::uint32_t a, std::uint32_t b) {
    const auto& ra = table.record(a);
    const auto& rb = table.record(b);
    if (ra.begin != rb.begin) return ra.begin < rb.begin;
    if (ra.end != rb.end) return ra.end < rb.end;
    return canonical_less(table, a, b);
  };
  // One sequential pass collects the entries and finds whether they are already in data order
  // (files written by the reference are); only otherwise do they get sorted.
  std::vector<std::uint32_t> order;
  order.reserve(table.size());
  advise_huge_pages(order.data(), order.capacity() * sizeof(std::uint32_t));  // a fresh block, like the records
  bool sorted = true;
  const TensorTable::Record* previous = nullptr;
  for (const TensorTable::Record& r : table.records()) {
    // Every entry as written takes part, duplicates included: the layout is the file's.
    if (!(r.flags & TensorTable::kHasOffsets)) return std::nullopt;
    const auto i = static_cast<std::uint32_t>(order.size());
    if (sorted && previous &&
        (r.begin < previous->begin || (r.begin == previous->begin && (r.end < previous->end ||
                                                                      (r.end == previous->end && by_offsets(i, i - 1))))))
      sorted = false;
    order.push_back(i);
    previous = &r;
  }
  if (!sorted) std::sort(order.begin(), order.end(), by_offsets);

  std::uint64_t covered = 0;
  for (const std::uint32_t i : order) {
    const auto& r = table.record(i);
    const std::string_view name = table.str(r.name);
    if (r.begin > covered)
      findings.add(Rule::st5_gap,
                   "a gap of " + std::to_string(r.begin - covered) + " bytes before this tensor (data offsets " +
                       std::to_string(covered) + " to " + std::to_string(r.begin) + ")",
                   data_start + covered, name);
    else if (r.begin < covered)
      findings.add(Rule::st5_overlap,
                   "the tensor begins at data offset " + std::to_string(r.begin) +
                       ", inside the previous tensor, which ends at " + std::to_string(covered),
                   data_start + r.begin, name);
    covered = std::max(covered, r.end);
  }
  TableBuilder::data_order(table) = std::move(order);
  return covered;
}

void check_data_end(std::uint64_t actual, std::uint64_t covered, std::uint64_t data_start,
                    FindingList& findings) {
  if (actual < covered)
    findings.add(Rule::st5_truncated,
                 "the data buffer has " + std::to_string(actual) + " bytes, the tensors need " +
                     std::to_string(covered),
                 data_start + actual);
  else if (actual > covered)
    findings.add(Rule::st5_trailing,
                 "bytes follow the last tensor, which ends at data offset " + std::to_string(covered),
                 data_start + covered);
}

}  // namespace tensorgate::detail
