// The format choices and the factory: an override picks a validator, auto_detect the
// detecting one (auto_validator.hpp).
#include "tensorgate/detect.hpp"

#include "kind/auto_validator.hpp"
#include "tensorgate/gguf.hpp"
#include "tensorgate/pickle.hpp"
#include "tensorgate/tar.hpp"
#include "tensorgate/zip.hpp"

namespace tensorgate {

std::optional<FormatChoice> parse_format_choice(std::string_view text) {
  if (text == "auto") return FormatChoice::auto_detect;
  if (text == "safetensors") return FormatChoice::safetensors;
  if (text == "gguf") return FormatChoice::gguf;
  if (text == "pickle") return FormatChoice::pickle;
  if (text == "zip") return FormatChoice::zip;
  if (text == "npy") return FormatChoice::npy;
  if (text == "tar") return FormatChoice::tar;
  return std::nullopt;
}

std::string_view format_choice_name(FormatChoice choice) {
  switch (choice) {
    case FormatChoice::safetensors: return "safetensors";
    case FormatChoice::gguf: return "gguf";
    case FormatChoice::pickle: return "pickle";
    case FormatChoice::zip: return "zip";
    case FormatChoice::npy: return "npy";
    case FormatChoice::tar: return "tar";
    case FormatChoice::auto_detect: break;
  }
  return "auto";
}

std::unique_ptr<Validator> make_validator(FormatChoice choice, std::string_view name, const Limits& limits,
                                          MemoryBudget* budget) {
  switch (choice) {
    case FormatChoice::safetensors: return make_safetensors_validator(limits, budget);
    case FormatChoice::gguf: return make_gguf_validator(limits, budget);
    case FormatChoice::pickle: return make_pickle_validator(limits, budget);
    case FormatChoice::zip: return make_zip_validator(limits, budget);
    case FormatChoice::npy: return make_npy_validator(limits, budget);
    case FormatChoice::tar: return make_tar_validator(limits, budget);
    case FormatChoice::auto_detect: break;
  }
  return std::make_unique<detail::kind::AutoValidator>(std::string(name), limits, budget);
}

DetectedKind detect_kind(std::string_view first_bytes) {
  const auto c = detail::kind::classify(first_bytes.substr(0, kDetectPrefix), true);
  return {c->format, c->looks_like};
}

}  // namespace tensorgate
