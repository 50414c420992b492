#pragma once
// Choosing the validator for an input: by the --input-format / format= override, or by what the
// content is (docs/rules.md, family FK): GGUF, zip or NumPy by their magic, a Git LFS pointer by
// its first line, safetensors by a plausible length and a header that begins with '{', tar when
// the first block is a header Python's tarfile accepts, pickle when the first bytes run as
// pickle opcodes, and otherwise empty or unknown. The name only
// adds FK.extension when it names another kind: it never chooses the validator.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "tensorgate/limits.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/report.hpp"
#include "tensorgate/validator.hpp"

namespace tensorgate {

// Detection, or one model format of tensorgate/formats.def.
enum class FormatChoice : unsigned char {
  auto_detect,
#define TENSORGATE_FORMAT(id, name) id,
#include "tensorgate/formats.def"
#undef TENSORGATE_FORMAT
};

// "auto" or a model format's name; nothing for anything else.
std::optional<FormatChoice> parse_format_choice(std::string_view text);
std::string_view format_choice_name(FormatChoice choice);
// Every choice's name in order, "auto" first, joined by `separator` (usage texts, the service's
// answer to an unknown format=).
std::string format_choice_names(std::string_view separator);

// A validator for `choice`. With auto_detect the validator holds the first bytes (at most
// kDetectPrefix) until they decide the format, then hands everything on; `name` (a path or the
// service's name=) is used for FK.extension only.
std::unique_ptr<Validator> make_validator(FormatChoice choice, std::string_view name,
                                          const Limits& limits = {}, MemoryBudget* budget = nullptr);

// The most bytes detection looks at before it decides.
inline constexpr std::size_t kDetectPrefix = 4096;

// What a file is from its first min(size, kDetectPrefix) bytes: for a directory walk, which
// checks model files and lists the rest.
struct DetectedKind {
  Format format = Format::unknown;
  std::string looks_like;  // for unknown and empty content
};
DetectedKind detect_kind(std::string_view first_bytes);

// Names with a weight's extension: .safetensors, .gguf, .bin, .pt, .pth, .ckpt, .pkl, .pickle,
// .npy, .npz, .tar (case-insensitive). A file of no model format under such a name is an error.
bool is_weight_name(std::string_view name);
// FK.extension's message when the name's extension names another kind than the content.
std::optional<std::string> extension_mismatch(std::string_view name, Format content);

}  // namespace tensorgate
