// The legacy GGML layouts as llama.cpp's loader before GGUF (llama.cpp, llama_file_loader, and
// convert_llama_ggml_to_gguf.py) and whisper.cpp's whisper_model_load read them.
#include "ggml/gl_layout.hpp"

#include <array>

namespace tensorgate::detail::ggml {
namespace {

constexpr std::array<std::string_view, kLlamaHparams> kLlamaNames = {"n_vocab", "n_embd", "n_mult", "n_head",
                                                                     "n_layer", "n_rot",  "ftype"};
constexpr std::array<std::string_view, kWhisperHparams> kWhisperNames = {
    "n_vocab",      "n_audio_ctx",  "n_audio_state", "n_audio_head", "n_audio_layer", "n_text_ctx",
    "n_text_state", "n_text_head",  "n_text_layer",  "n_mels",       "ftype"};

// No real model has a dimension, a layer count or a vocabulary near 2^24; a value past it is
// another layout's bytes (or a corruption), which is what placement must tell apart.
constexpr std::int32_t kMaxPlausible = 1 << 24;

std::string out_of_range(std::string_view name, std::int32_t v) {
  return std::string(name) + " = " + std::to_string(v) + " (expected 1 to " + std::to_string(kMaxPlausible) + ")";
}

// whisper.cpp's ftype is a ggml_ftype plus 1000 times the quantization version (ggml's
// GGML_QNT_VERSION_FACTOR); the ftypes its quantizer writes.
bool whisper_ftype_known(std::int32_t f) {
  if (f < 0 || f / 1000 > 2) return false;
  const std::int32_t t = f % 1000;
  return t <= 4 || (t >= 7 && t <= 14);
}

}  // namespace

std::string_view kind_name(Kind k) {
  switch (k) {
    case Kind::whisper: return "whisper";
    case Kind::llama_ggml: return "llama-ggml";
    case Kind::llama_ggmf: return "llama-ggmf";
    case Kind::llama_ggjt: return "llama-ggjt";
    case Kind::none: break;
  }
  return "";
}

std::span<const std::string_view> hparam_names(Kind k) {
  if (k == Kind::whisper) return kWhisperNames;
  return kLlamaNames;
}

std::string llama_implausible(std::span<const std::int32_t> ints) {
  for (std::size_t i = 0; i + 1 < kLlamaHparams; ++i)
    if (ints[i] < 1 || ints[i] > kMaxPlausible) return out_of_range(kLlamaNames[i], ints[i]);
  const std::int32_t n_embd = ints[1], n_head = ints[3], n_rot = ints[5], ftype = ints[6];
  if (n_embd % n_head != 0)
    return "n_embd = " + std::to_string(n_embd) + " is not a multiple of n_head = " + std::to_string(n_head);
  if (n_rot > n_embd / n_head)
    return "n_rot = " + std::to_string(n_rot) + " is larger than a head (n_embd / n_head = " + std::to_string(n_embd / n_head) + ")";
  // llama_ftype 0-18: every value llama.cpp wrote before GGUF (5 and 6 were Q4_2 and Q4_3).
  if (ftype < 0 || ftype > 18) return "ftype = " + std::to_string(ftype) + " is no llama file type (0 to 18)";
  return {};
}

std::string whisper_implausible(std::span<const std::int32_t> ints) {
  for (std::size_t i = 0; i + 1 < kWhisperHparams; ++i)
    if (ints[i] < 1 || ints[i] > kMaxPlausible) return out_of_range(kWhisperNames[i], ints[i]);
  if (!whisper_ftype_known(ints[10]))
    return "ftype = " + std::to_string(ints[10]) + " is no ggml file type of quantization version 0 to 2";
  // whisper.cpp asserts these equal; a llama header never has them so (its ftype, below 19,
  // sits where n_text_state is, its n_mult where n_audio_state is).
  if (ints[2] != ints[6])
    return "n_audio_state = " + std::to_string(ints[2]) + " differs from n_text_state = " + std::to_string(ints[6]);
  if (ints[11] != ints[9])
    return "the mel filters have " + std::to_string(ints[11]) + " rows where n_mels = " + std::to_string(ints[9]);
  if (ints[12] < 1 || ints[12] > kMaxPlausible) return out_of_range("the mel filters' n_fft", ints[12]);
  return {};
}

std::uint64_t expected_tensors(Kind k, std::span<const GgmlHyperparameter> hparams) {
  const auto at = [&](std::size_t i) { return i < hparams.size() ? static_cast<std::uint64_t>(hparams[i].value) : 0; };
  if (k == Kind::whisper) return 11 + 15 * at(4) + 24 * at(8);  // n_audio_layer, n_text_layer
  return 3 + 9 * at(4);                                         // n_layer
}

const GgmlTypeInfo* tensor_type(QuantEra era, std::string_view layout, std::uint32_t id, std::string& why) {
  const GgmlTypeInfo* info = ggml_type_info(id);
  if (id == 4 || id == 5) {
    why = "type " + std::to_string(id) + (id == 4 ? " (Q4_2)" : " (Q4_3)") +
          " was removed from ggml in 2023; no loader reads its blocks";
    return nullptr;
  }
  // What llama.cpp's last GGML loader read (F32 to Q6_K, no Q8_1 or later types, which no
  // GGML writer produced); whisper.cpp's quantizer writes the same set.
  const bool written = id <= 3 || (id >= 6 && id <= 8) || (id >= 10 && id <= 14);
  if (!info || !written) {
    why = "type " + std::to_string(id) + (info ? " (" + std::string(info->name) + ")" : std::string()) +
          " is no type a legacy GGML file holds";
    return nullptr;
  }
  if (id <= 1) return info;
  if (era == QuantEra::original) {
    why = std::string(info->name) + " in " + std::string(layout) +
          ", a file of ggml's original quantization layouts, which ggml changed in May 2023: no loader reads them since";
    return nullptr;
  }
  if (era == QuantEra::v2 && (id == 2 || id == 3 || id == 8)) {
    why = std::string(info->name) + " in " + std::string(layout) +
          ": its blocks then kept an f32 scale, which ggml made f16 (ggjt v3, quantization version 2); no loader reads "
          "them since";
    return nullptr;
  }
  if (era == QuantEra::v2 && id >= 10) {
    why = std::string(info->name) + " in " + std::string(layout) + ", a file older than the k-quants";
    return nullptr;
  }
  return info;
}

}  // namespace tensorgate::detail::ggml
