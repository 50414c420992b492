// The chat template checks (family CT) under the chunking invariant: the input's first bytes
// choose the chunk boundaries (fuzz_support.hpp, Split), bit 4 of the first byte whether the rest
// is a .jinja template or a tokenizer_config.json. Whole, cut there and fed byte by byte, the
// report is the same; a report holds at most one finding per CT rule per template, each offset
// inside the file; messages are short; the report writers take the result (check_writers).
// The lexer never recurses and keeps O(1) state, so a hang or a quadratic input shows as a
// libFuzzer timeout.
#include <cstdint>
#include <string>

#include "fuzz_support.hpp"
#include "tensorgate/chat_template.hpp"

namespace {

using tensorgate::ChatTemplateFileKind;

std::string rendered(const tensorgate::ChatTemplateFileReport& r) {
  std::string out = std::to_string(r.valid) + " " + std::to_string(r.findings_dropped) + " " + std::to_string(r.template_count);
  for (const auto& t : r.templates) out += "|" + t.name + ":" + std::to_string(t.bytes);
  for (const auto& f : r.findings)
    out += "\n" + std::string(tensorgate::rule_info(f.rule).id) + "@" + std::to_string(f.offset.value_or(~0ull)) + " " + f.message;
  return out;
}

tensorgate::ChatTemplateFileReport fed(ChatTemplateFileKind kind, std::string_view file, const std::vector<std::size_t>& cuts) {
  tensorgate::ChatTemplateFileCheck check(kind == ChatTemplateFileKind::jinja ? "t.jinja" : "tokenizer_config.json", kind);
  std::size_t at = 0;
  for (const std::size_t cut : cuts) {
    check.feed(file.substr(at, cut - at));
    at = cut;
  }
  check.feed(file.substr(at));
  return check.finish();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input = tgfuzz::as_text(data, size);
  const tgfuzz::Split s = tgfuzz::split_of(input);
  const auto kind = !input.empty() && (static_cast<unsigned char>(input[0]) & 0x10) ? ChatTemplateFileKind::json
                                                                                     : ChatTemplateFileKind::jinja;
  const auto whole = fed(kind, s.file, {});
  const std::string want = rendered(whole);
  tgfuzz::require(rendered(fed(kind, s.file, s.cuts)) == want, "chunking-invariant");
  if (s.file.size() <= 4096) {
    std::vector<std::size_t> every;
    for (std::size_t i = 1; i < s.file.size(); ++i) every.push_back(i);
    tgfuzz::require(rendered(fed(kind, s.file, every)) == want, "byte-by-byte-invariant");
  }
  bool errors = whole.findings_dropped > 0 && !whole.valid;
  std::uint32_t seen = 0;
  for (const auto& f : whole.findings) {
    errors = errors || f.severity == tensorgate::Severity::error;
    tgfuzz::require(tensorgate::rule_info(f.rule).family == "CT", "ct-family", tensorgate::rule_info(f.rule).id);
    tgfuzz::require(!f.offset || *f.offset <= s.file.size(), "offset-inside", f.message);
    tgfuzz::require(f.message.size() < 600, "short-message", f.message);
    if (kind == ChatTemplateFileKind::jinja) {
      const std::uint32_t bit = 1u << (static_cast<unsigned>(f.rule) % 32);
      tgfuzz::require(!(seen & bit), "one-finding-per-rule", tensorgate::rule_info(f.rule).id);
      seen |= bit;
    }
  }
  tgfuzz::require(whole.valid == !errors, "valid-iff-no-errors");
  if (kind == ChatTemplateFileKind::jinja)
    tgfuzz::require(whole.template_count == 1 && whole.templates.at(0).bytes == s.file.size(), "jinja-is-one-template");
  // The writers: the file's entry in JSON, SARIF and text parses and stays UTF-8.
  tensorgate::CheckedFile checked{.path = "t.jinja", .report = std::nullopt, .error = std::nullopt};
  checked.chat_template = whole;
  tgfuzz::check_writers({checked});
  return 0;
}
