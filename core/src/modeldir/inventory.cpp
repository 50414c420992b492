#include "modeldir/dir_context.hpp"
#include "tensorgate/model_dir.hpp"

namespace tensorgate {

std::optional<std::string> FileInventory::metadata_value(std::string_view key) const {
  for (const auto& [k, v] : metadata)
    if (k == key) return v;
  return std::nullopt;
}

FileInventory inventory_of(std::string name, const Report& report) {
  const SafetensorsSummary* s = report.summary.get<SafetensorsSummary>();
  if (!s) return detail::checkpoint_inventory(std::move(name), report);
  return inventory_of(std::move(name), report.valid, *s->tensors);
}

FileInventory inventory_of(std::string name, bool valid, const TensorTable& table) {
  FileInventory inv;
  inv.name = std::move(name);
  inv.valid = valid;
  for (std::size_t i = 0; i < table.metadata_size(); ++i) {
    const auto [key, value] = table.metadata(i);
    inv.metadata.emplace_back(key, value);
  }
  inv.tensors.reserve(table.size());
  for (std::size_t i = 0; i < table.size(); ++i) {
    const TensorView t = table[i];
    inv.tensors.push_back(InventoryTensor{std::string(t.name), std::string(dtype_info(t.dtype).name),
                                          {t.shape.begin(), t.shape.end()}, t.end - t.begin});
  }
  return inv;
}

}  // namespace tensorgate
