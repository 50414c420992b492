// The format choices and the factory: an override picks a validator, auto_detect the
// detecting one (auto_validator.hpp).
#include "tensorgate/detect.hpp"

#include "kind/auto_validator.hpp"
#include "tensorgate/ctranslate2.hpp"
#include "tensorgate/flax.hpp"
#include "tensorgate/ggml.hpp"
#include "tensorgate/gguf.hpp"
#include "tensorgate/hdf5.hpp"
#include "tensorgate/onnx.hpp"
#include "tensorgate/openvino.hpp"
#include "tensorgate/pickle.hpp"
#include "tensorgate/savedmodel.hpp"
#include "tensorgate/tar.hpp"
#include "tensorgate/tflite.hpp"
#include "tensorgate/zip.hpp"

namespace tensorgate {

std::optional<FormatChoice> parse_format_choice(std::string_view text) {
  if (text == "auto") return FormatChoice::auto_detect;
#define TENSORGATE_FORMAT(id, name) \
  if (text == name) return FormatChoice::id;
#include "tensorgate/formats.def"
#undef TENSORGATE_FORMAT
  return std::nullopt;
}

std::string_view format_choice_name(FormatChoice choice) {
  switch (choice) {
#define TENSORGATE_FORMAT(id, name) \
  case FormatChoice::id:            \
    return name;
#include "tensorgate/formats.def"
#undef TENSORGATE_FORMAT
    case FormatChoice::auto_detect: break;
  }
  return "auto";
}

std::string format_choice_names(std::string_view separator) {
  std::string out = "auto";
#define TENSORGATE_FORMAT(id, name) out.append(separator).append(name);
#include "tensorgate/formats.def"
#undef TENSORGATE_FORMAT
  return out;
}

std::unique_ptr<Validator> make_validator(FormatChoice choice, std::string_view name, const Limits& limits,
                                          MemoryBudget* budget) {
  switch (choice) {
#define TENSORGATE_FORMAT(id, name) \
  case FormatChoice::id:            \
    return make_##id##_validator(limits, budget);
#include "tensorgate/formats.def"
#undef TENSORGATE_FORMAT
    case FormatChoice::auto_detect: break;
  }
  return std::make_unique<detail::kind::AutoValidator>(std::string(name), limits, budget);
}

DetectedKind detect_kind(std::string_view first_bytes) {
  const auto c = detail::kind::classify(first_bytes.substr(0, kDetectPrefix), true);
  // A compressed file whose first bytes inflate to nothing yet is no pickle until read further:
  // a directory walk takes it for what it looks like.
  if (c->compressed_pending) return {Format::unknown, c->looks_like};
  return {c->format, c->looks_like};
}

}  // namespace tensorgate
