// MD.no-weights, MD.invalid-file, MD.config-missing's scope, and which files make the model:
// safetensors first (model.safetensors.index.json, or model.safetensors), then torch
// checkpoints (pytorch_model.bin.index.json, pytorch_model.bin, or the checkpoints of a
// directory that holds nothing else), then GGUF files, then ONNX models, then a TensorFlow
// SavedModel's saved_model.pb, then a CTranslate2 model's model.bin, then files each of which is a
// model of its own (whisper.cpp's ggml-*.bin, .tflite models, flax_model.msgpack); a directory
// whose models are in its onnx/ folder (transformers.js) has weights, checked file by file. A
// Keras directory's weights are its model.weights.h5 (or .npz), whatever else it holds.
#include <algorithm>

#include "modeldir/dir_context.hpp"

namespace tensorgate::detail {
namespace {

bool any(const ModelDirectory& dir, bool (*pred)(Format)) {
  return std::any_of(dir.weights.begin(), dir.weights.end(), [&](const FileInventory& f) { return pred(f.format); });
}
bool is_safetensors(Format f) { return f == Format::safetensors; }
bool is_gguf(Format f) { return f == Format::gguf; }
bool is_onnx(Format f) { return f == Format::onnx; }
bool is_openvino(Format f) { return f == Format::openvino; }
// Formats whose every file is a whole model: a folder holds several sizes or variants side by side.
bool is_whole_model(Format f) { return f == Format::ggml || f == Format::tflite || f == Format::flax; }
// A model of the onnx/ folder: among the weights only from /v1/check-model (for MD.invalid-file),
// never one of the files that make the model.
bool in_onnx_folder(const FileInventory& f) { return f.name.starts_with("onnx/"); }
bool is_top_onnx(const FileInventory& f) { return is_onnx(f.format) && !in_onnx_folder(f); }

}  // namespace

bool is_torch_format(Format f) { return f == Format::pickle || f == Format::zip; }

// CTranslate2's converters write model.bin, config.json (the converter's, no Hugging Face
// config) and vocabulary files; a directory of safetensors weights is not one.
bool is_ctranslate2_directory(const DirContext& ctx) {
  const FileInventory* bin = ctx.weights_file("model.bin");
  return bin && bin->format == Format::ctranslate2 && !any(ctx.dir(), is_safetensors);
}

// A safetensors model needs its config; a directory of GGUF files or of torch checkpoints only
// is a model directory without one (MD and AR apply where their inputs exist).
bool needs_config(const ModelDirectory& dir) { return dir.index_json || any(dir, is_safetensors); }

void check_weights(DirContext& ctx) {
  const ModelDirectory& dir = ctx.dir();
  for (const auto& f : dir.weights) {
    if (f.valid || names_a_shard(f.name)) continue;  // a shard's is GS's (GS.invalid-shard)
    if (is_model_format(f.format))
      ctx.add(Rule::md_invalid_file, f.name + " is not a valid " + std::string(format_name(f.format)) +
                                         " file (its own report says why)");
    else
      ctx.add(Rule::md_invalid_file, f.name + " has a weight's name but its content is " +
                                         std::string(format_name(f.format)) + ", no model file (its own report says why)");
  }
  const FileInventory* single = ctx.weights_file("model.safetensors");
  const FileInventory* bin = ctx.weights_file("pytorch_model.bin");
  if (is_keras_directory(ctx)) {
    // Keras reads its weights file and nothing else of the directory's.
    if (const FileInventory* weights = keras_weights(ctx)) ctx.model_files.push_back(weights);
    else ctx.add(Rule::md_no_weights, "a Keras directory (its config.json is a Keras model's) without model.weights.h5 or model.weights.npz");
  } else if (dir.index_json) {
    check_shards(ctx, {"model.safetensors.index.json", &*dir.index_json, ".safetensors", "safetensors file", false});
  } else if (single && single->format == Format::safetensors) {
    ctx.model_files.push_back(single);
  } else if (dir.bin_index_json) {
    check_shards(ctx, {"pytorch_model.bin.index.json", &*dir.bin_index_json, ".bin", "torch checkpoint", true});
  } else if (bin && is_torch_format(bin->format)) {
    ctx.model_files.push_back(bin);
  } else if (any(dir, is_torch_format) && !any(dir, is_safetensors) && !any(dir, is_gguf)) {
    for (const auto& f : dir.weights)  // torch checkpoints only
      if (is_torch_format(f.format)) ctx.model_files.push_back(&f);
  } else if (any(dir, is_gguf) && !any(dir, is_safetensors)) {
    for (const auto& f : dir.weights)  // GGUF files only
      if (is_gguf(f.format)) ctx.model_files.push_back(&f);
  } else if (std::any_of(dir.weights.begin(), dir.weights.end(), is_top_onnx) && !any(dir, is_safetensors)) {
    for (const auto& f : dir.weights)  // ONNX models, and no other weights that make a model
      if (is_top_onnx(f)) ctx.model_files.push_back(&f);
  } else if (any(dir, is_openvino) && !any(dir, is_safetensors)) {
    for (const auto& f : dir.weights)  // OpenVINO IR models (optimum-intel's export): each xml with its .bin
      if (is_openvino(f.format)) ctx.model_files.push_back(&f);
  } else if (const FileInventory* pb = ctx.weights_file("saved_model.pb");
             pb && pb->format == Format::savedmodel && !any(dir, is_safetensors)) {
    // A SavedModel: its graph makes the model. Its variables are checked apart where the face
    // has the files (ModelDirectory::savedmodel); /v1/check-model sees only the graph's report.
    ctx.model_files.push_back(pb);
  } else if (is_ctranslate2_directory(ctx)) {
    // A CTranslate2 model: its model.bin, beside its own config.json and vocabulary files.
    ctx.model_files.push_back(ctx.weights_file("model.bin"));
  } else if (any(dir, is_whole_model) && !any(dir, is_safetensors)) {
    for (const auto& f : dir.weights)  // legacy GGML, TFLite and Flax files: each a model
      if (is_whole_model(f.format)) ctx.model_files.push_back(&f);
  } else if (dir.onnx_folder_models.empty()) {
    ctx.add(Rule::md_no_weights, "none of model.safetensors, model.safetensors.index.json, pytorch_model.bin, "
                                 "pytorch_model.bin.index.json is present, the directory is not of GGUF files, "
                                 "torch checkpoints, ONNX models or OpenVINO IR only, its onnx/ folder holds no ONNX model, "
                                 "it is no SavedModel (saved_model.pb) nor CTranslate2 model (model.bin), and it "
                                 "holds no legacy GGML, TFLite or Flax file");
  }
}

}  // namespace tensorgate::detail

namespace tensorgate {

bool is_model_directory(const std::vector<ListedFile>& files) {
  std::vector<std::string> names;
  bool any_model = false, all_gguf = true, all_torch = true;
  for (const ListedFile& f : files) {
    names.push_back(f.name);
    if (!is_model_format(f.format)) continue;
    any_model = true;
    all_gguf = all_gguf && f.format == Format::gguf;
    all_torch = all_torch && detail::is_torch_format(f.format);
  }
  return is_model_directory(names) || (any_model && (all_gguf || all_torch));
}

bool is_openvino_weights(std::string_view name, const std::vector<ListedFile>& files) {
  if (name.size() <= 4 || !name.ends_with(".bin")) return false;
  const std::string_view stem = name.substr(0, name.size() - 4);
  return std::any_of(files.begin(), files.end(), [&](const ListedFile& f) {
    return f.format == Format::openvino && f.name.size() == stem.size() + 4 && f.name.starts_with(stem) && f.name.ends_with(".xml");
  });
}

}  // namespace tensorgate
