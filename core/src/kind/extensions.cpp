// What a file's name says it is (FK.extension), and which names are weights' (a directory walk
// reports a file of unknown content under such a name as FK.unknown).
#include <algorithm>
#include <cctype>
#include <string>

#include "tensorgate/detect.hpp"

namespace tensorgate {
namespace {

struct Extension {
  std::string_view ext;
  Format formats[5];
  int count;
};

// torch.save writes zips since 1.6, pickles before, and tars in its first releases: .bin, .pt,
// .pth and .ckpt are any of them; whisper.cpp's models and llama.cpp's before GGUF are .bin too,
// and CTranslate2 names its weights model.bin.
constexpr Extension kExtensions[] = {
    {".safetensors", {Format::safetensors}, 1},
    {".gguf", {Format::gguf}, 1},
    {".bin", {Format::zip, Format::pickle, Format::tar, Format::ggml, Format::ctranslate2}, 5},
    {".pt", {Format::zip, Format::pickle, Format::tar}, 3},
    {".pth", {Format::zip, Format::pickle, Format::tar}, 3},
    {".ckpt", {Format::zip, Format::pickle, Format::tar}, 3},
    {".pkl", {Format::pickle}, 1},
    {".pickle", {Format::pickle}, 1},
    {".npy", {Format::npy}, 1},
    {".npz", {Format::zip}, 1},
    {".tar", {Format::tar}, 1},
    {".onnx", {Format::onnx}, 1},
    {".h5", {Format::hdf5}, 1},
    {".hdf5", {Format::hdf5}, 1},
    {".tflite", {Format::tflite}, 1},
    {".msgpack", {Format::flax}, 1},
};

const Extension* extension_of(std::string_view name) {
  std::string lower(name.substr(name.size() > 16 ? name.size() - 16 : 0));
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const Extension& e : kExtensions)
    if (lower.size() > e.ext.size() && lower.ends_with(e.ext)) return &e;
  return nullptr;
}

}  // namespace

bool is_weight_name(std::string_view name) { return extension_of(name) != nullptr; }

std::optional<std::string> extension_mismatch(std::string_view name, Format content) {
  const Extension* e = extension_of(name);
  if (!e || content == Format::lfs_pointer || content == Format::empty || content == Format::unknown) return std::nullopt;
  if (std::find(e->formats, e->formats + e->count, content) != e->formats + e->count) return std::nullopt;
  std::string named;
  for (int i = 0; i < e->count; ++i) named += (i ? " or " : "") + std::string(format_name(e->formats[i]));
  return "the name ends in " + std::string(e->ext) + " (" + named + "), the content is " + std::string(format_name(content)) +
         ": the content decides, its rules apply";
}

}  // namespace tensorgate
