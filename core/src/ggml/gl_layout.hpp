#pragma once
// What the legacy GGML layouts say, apart from the byte loop: the magics, the hyperparameters'
// names, how an unversioned file is placed (whisper.cpp or llama), whether hyperparameters can
// be right (GL.header), and which ggml types each layout may hold (GL.tensor).
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "tensorgate/ggml.hpp"
#include "tensorgate/gguf.hpp"

namespace tensorgate::detail::ggml {

inline constexpr std::uint32_t kMagicGgml = 0x67676d6c;  // "lmgg" on disk: llama before ggmf, whisper.cpp
inline constexpr std::uint32_t kMagicGgmf = 0x67676d66;  // llama, version 1: vocabulary scores
inline constexpr std::uint32_t kMagicGgjt = 0x67676a74;  // llama, versions 1-3: 32-byte aligned data

enum class Kind : unsigned char { none, whisper, llama_ggml, llama_ggmf, llama_ggjt };
std::string_view kind_name(Kind k);

inline constexpr std::size_t kLlamaHparams = 7;
inline constexpr std::size_t kWhisperHparams = 11;
// What an unversioned file's placement looks at: whisper's 11 hyperparameters and the mel
// filters' two counts.
inline constexpr std::size_t kProbeInts = kWhisperHparams + 2;

std::span<const std::string_view> hparam_names(Kind k);

// Hyperparameters whose values cannot be a real model's, or "" when they can. `ints` holds
// the hyperparameters (whisper: and the mel filters' counts).
std::string llama_implausible(std::span<const std::int32_t> ints);
std::string whisper_implausible(std::span<const std::int32_t> ints);

// The tensor records a whole model of these hyperparameters has (the loaders refuse a file
// missing any): llama 3 + 9 a layer; whisper 11 + 15 an encoder block + 24 a decoder block.
std::uint64_t expected_tensors(Kind k, std::span<const GgmlHyperparameter> hparams);

// The ggml quantization layouts of a file's time: llama.cpp changed the bytes of Q4_0, Q4_1
// and Q8_0 twice in May 2023 (ggjt v2 and v3; whisper.cpp's ftype counts the same changes in
// its thousands, the quantization version).
enum class QuantEra : unsigned char { original, v2, current };

// The type a tensor of this era may have, or null with `why` said: a tensor whose bytes no
// loader after the change reads is refused rather than sized with a table nobody keeps.
// `layout` names the file in the message ("a llama-ggjt v2 file").
const GgmlTypeInfo* tensor_type(QuantEra era, std::string_view layout, std::uint32_t id, std::string& why);

}  // namespace tensorgate::detail::ggml
