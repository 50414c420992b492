// The zip facts of the text report: ", 12 entries, PyTorch archive "model" (data.pkl clean),
// 4 storages, 4 tensors".
#include "common/printable.hpp"
#include "common/text_counts.hpp"
#include "zip/report_writers.hpp"

namespace tensorgate::detail {

std::string zip_text_facts(const ZipSummary& z) {
  std::string line = ", " + std::to_string(z.entries) + (z.entries == 1 ? " entry" : " entries");
  if (z.pytorch_archive) {
    line += ", PyTorch archive " + quoted(*z.pytorch_archive, 40);
    if (z.data_pkl_valid) line += *z.data_pkl_valid ? " (data.pkl clean)" : " (data.pkl INVALID)";
    line += ", " + count_of(z.storages.size() + z.storages_not_listed, "storage");
    if (const PickleSummary* state = pytorch_state(z); state && !state->tensors.empty())
      line += ", " + count_of(state->tensors.size() + state->tensors_dropped, "tensor");
  }
  if (z.torchscript) {
    line += ", TorchScript" + std::string(z.torchscript->bytecode ? " (mobile bytecode)" : "") + ": " +
            std::to_string(z.torchscript->classes.size() + z.torchscript->classes_not_listed) + " scripted class" + (z.torchscript->classes.size() + z.torchscript->classes_not_listed == 1 ? "" : "es") + ", " +
            count_of(z.torchscript->code_files.size() + z.torchscript->code_files_not_listed, "code file");
  }
  if (!z.arrays.empty()) line += ", " + count_of(z.arrays.size(), "array");
  if (z.keras) line += ", Keras " + quoted(z.keras->model_class, 40) + " of " + count_of(z.keras->objects, "object");
  return line;
}

}  // namespace tensorgate::detail
