// A torch checkpoint as the cross-file checks see it: the tensors its pickle's state dict
// rebuilds (a legacy pickle stream, or a PyTorch archive's data.pkl), with their dtypes,
// shapes and byte sizes; an ONNX model: its initializers as listed; a CTranslate2 model.bin: its
// variables as listed; an OpenVINO model: its Const layers as listed. A GGUF file or any other
// kind: the verdict only.
#include "modeldir/dir_context.hpp"
#include "tensorgate/ctranslate2.hpp"
#include "tensorgate/onnx.hpp"
#include "tensorgate/openvino.hpp"
#include "tensorgate/zip.hpp"

namespace tensorgate::detail {

FileInventory checkpoint_inventory(std::string name, const Report& report) {
  FileInventory inv;
  inv.name = std::move(name);
  inv.valid = report.valid;
  inv.format = report.format;
  if (const OnnxSummary* onnx = report.summary.get<OnnxSummary>()) {
    inv.tensors.reserve(onnx->initializers.size());
    for (const OnnxTensor& t : onnx->initializers) inv.tensors.push_back(InventoryTensor{t.name, t.dtype, t.shape, t.bytes});
    return inv;
  }
  if (const CTranslate2Summary* ct = report.summary.get<CTranslate2Summary>()) {
    inv.tensors.reserve(ct->variables.size());
    for (const CTranslate2Variable& v : ct->variables) inv.tensors.push_back(InventoryTensor{v.name, v.dtype, v.shape, v.bytes});
    return inv;
  }
  if (const OpenVinoSummary* ir = report.summary.get<OpenVinoSummary>()) {  // its Const layers as listed
    inv.tensors.reserve(ir->const_layers.size());
    for (const OpenVinoConst& c : ir->const_layers) inv.tensors.push_back(InventoryTensor{c.name, c.element_type, c.shape, c.size});
    return inv;
  }
  const PickleSummary* state = torch_state(report.summary);
  if (!state) return inv;
  inv.tensors.reserve(state->tensors.size());
  for (const PickleTensor& t : state->tensors) inv.tensors.push_back(InventoryTensor{t.name, t.dtype, t.shape, t.bytes});
  return inv;
}

}  // namespace tensorgate::detail
