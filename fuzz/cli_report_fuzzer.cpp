// The report writers (JSON, SARIF, text) on whatever the validators find (any format, as
// detection picks from the first bytes and the path): the JSON and SARIF documents must parse
// (Boost.JSON rejects invalid UTF-8), the text must be valid UTF-8, whatever bytes the file's
// names and its path hold, and the report written a piece at a time (the service's streamed
// answers) must be the report written whole. The `--format` choices and detect_kind run on the
// same bytes. The input's first byte sizes the path.
#include <boost/json.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "tensorgate/report_writers.hpp"
#include "tensorgate/detect.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input = tgfuzz::as_text(data, size);
  const std::size_t path_length = input.empty() ? 0 : std::min<std::size_t>(static_cast<unsigned char>(input[0]) % 24, input.size() - 1);
  const std::string path(input.substr(input.empty() ? 0 : 1, path_length));
  const std::string_view file = input.substr(input.empty() ? 0 : 1 + path_length);

  std::vector<tensorgate::CheckedFile> files;
  auto validator = tensorgate::make_validator(tensorgate::FormatChoice::auto_detect, path, {}, nullptr);
  validator->feed(file);
  files.push_back({path, validator->finish(), std::nullopt});
  files.push_back({path + "/missing", std::nullopt, "cannot open: " + path});
  // Pieces of 1 to 256 bytes: every list item a pause, or a few.
  tgfuzz::check_writers(files, 1 + (file.empty() ? 0 : static_cast<unsigned char>(file.back())));
  // `--format NAME`: every name parses back to its choice, and each chosen validator, fed the
  // first bytes, answers with a report that keeps the invariants; detect_kind names the bytes.
  using tensorgate::FormatChoice;
  for (const FormatChoice choice : {FormatChoice::auto_detect, FormatChoice::safetensors, FormatChoice::gguf,
                                    FormatChoice::pickle, FormatChoice::zip, FormatChoice::npy}) {
    tgfuzz::require(tensorgate::parse_format_choice(tensorgate::format_choice_name(choice)) == choice, "format-names-round-trip");
    auto chosen = tensorgate::make_validator(choice, path, {}, nullptr);
    chosen->feed(file.substr(0, 64));
    tgfuzz::check_report_invariants(chosen->finish());
  }
  const tensorgate::DetectedKind kind = tensorgate::detect_kind(file);
  tgfuzz::require(kind.format != tensorgate::Format::unknown || !kind.looks_like.empty(), "unknown-says-what-it-looks-like");
  std::string rules;
  tensorgate::JsonWriter w([&](std::string_view s) { rules += s; });
  tensorgate::write_rules_json(w);
  w.flush();
  boost::json::error_code ec;
  boost::json::parse(rules, ec);
  tgfuzz::require(!ec, "rules-json-parses", ec.message());
  return 0;
}
