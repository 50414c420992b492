#include "tensorgate/model_dir.hpp"

namespace tensorgate {

std::optional<std::string> FileInventory::metadata_value(std::string_view key) const {
  for (const auto& [k, v] : metadata)
    if (k == key) return v;
  return std::nullopt;
}

FileInventory inventory_of(std::string name, const Report& report) {
  FileInventory inv;
  inv.name = std::move(name);
  inv.valid = report.valid;
  if (!report.safetensors) return inv;
  inv.metadata = report.safetensors->metadata;
  const TensorTable& table = *report.safetensors->tensors;
  inv.tensors.reserve(table.size());
  for (std::size_t i = 0; i < table.size(); ++i) {
    const TensorView t = table[i];
    inv.tensors.push_back(InventoryTensor{std::string(t.name), std::string(dtype_info(t.dtype).name),
                                          {t.shape.begin(), t.shape.end()}, t.end - t.begin});
  }
  return inv;
}

}  // namespace tensorgate
