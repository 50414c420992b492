// The report writers (JSON, SARIF, text) on whatever the validators find (safetensors or GGUF,
// as format detection picks from the first bytes and the path): the JSON and SARIF
// documents must parse (Boost.JSON rejects invalid UTF-8), and the text must be valid UTF-8,
// whatever bytes the file's names and its path hold. The input's first byte sizes the path.
#include <boost/json.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "tensorgate/report_writers.hpp"
#include "tensorgate/detect.hpp"

namespace {

bool valid_utf8(std::string_view s) {
  boost::json::string_view sv(s.data(), s.size());
  boost::json::error_code ec;
  // A JSON string literal of the text is valid exactly when the text is valid UTF-8 without
  // raw control characters other than tab, LF and ESC colour codes, which the text keeps.
  std::string probe = "\"";
  for (char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20) continue;  // control characters are allowed in text output: not a UTF-8 question
    if (c == '"' || c == '\\') probe += '\\';
    probe += c;
  }
  probe += '"';
  boost::json::parse(probe, ec);
  return !ec;
}

}  // namespace

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
  for (const bool colour : {false, true}) {
    const tensorgate::ReportOptions options{true, colour};
    std::string json, sarif, text;
    tensorgate::write_json_report(files, options, [&](std::string_view s) { json += s; });
    tensorgate::write_sarif_report(files, options, [&](std::string_view s) { sarif += s; });
    tensorgate::write_text_report(files, options, [&](std::string_view s) { text += s; });
    boost::json::error_code ec;
    boost::json::parse(json, ec);
    tgfuzz::require(!ec, "json-report-parses", ec.message());
    boost::json::parse(sarif, ec);
    tgfuzz::require(!ec, "sarif-report-parses", ec.message());
    tgfuzz::require(valid_utf8(text), "text-report-is-utf8");
  }
  std::string rules;
  tensorgate::JsonWriter w([&](std::string_view s) { rules += s; });
  tensorgate::write_rules_json(w);
  w.flush();
  boost::json::error_code ec;
  boost::json::parse(rules, ec);
  tgfuzz::require(!ec, "rules-json-parses", ec.message());
  return 0;
}
