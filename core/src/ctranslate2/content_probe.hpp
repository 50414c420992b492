#pragma once
// Whether a file's first bytes are a CTranslate2 model.bin (format detection, kind/classify.cpp).
// model.bin has no magic, only a uint32 binary version 1 to 6, so the probe asks for more than a
// version before it says yes. From version 2: a spec name, a uint16 length (counting its NUL)
// and a Python class name ("WhisperSpec", "TransformerSpec") ending in a NUL. Version 1 has no
// spec name: its first variable's record, whole and sensible (a count of at least one, a name of
// visible ASCII ending in a NUL, a rank of at most 8, an item size of 4, 2 or 1). A pickle
// (its first byte is an opcode, none below 0x28), a GGUF, zip, NumPy or HDF5 magic, a
// safetensors length (its bytes 4 to 7 zero, or a '{' at byte 8) never pass.
#include <string_view>

namespace tensorgate::detail::ctranslate2 {

enum class ProbeVerdict { yes, no, undecided };

// `complete`: the prefix is all the input there is (or all detection looks at).
ProbeVerdict probe_model_bin(std::string_view prefix, bool complete);

}  // namespace tensorgate::detail::ctranslate2
