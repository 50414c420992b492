// The TorchScript code lexer and its rules (core/src/torchscript, family TS) over any bytes as a
// code file: the input's first bytes choose chunk boundaries (fuzz_support.hpp, Split), the
// rest is the file. Whole, cut there and fed byte by byte (small files), the findings are the
// same; only TS.code and TS.code-lex, at most one TS.code-lex, every offset inside the file,
// messages short; under tight limits (a shallow bracket stack, short names) the same holds. The
// same bytes read as a mobile archive's bytecode.pkl for its operator names: only TS.code, the
// same findings whole, cut and byte by byte. The
// lexer keeps O(1) state and never recurses, so a hang or a quadratic input shows as a libFuzzer
// timeout.
#include <cstdint>
#include <string>

#include "common/finding_list.hpp"
#include "fuzz_support.hpp"
#include "torchscript/bytecode_ops.hpp"
#include "torchscript/code_lexer.hpp"

namespace {

using tensorgate::detail::FindingList;
using tensorgate::detail::torchscript::CodeScanner;

std::string run(const tensorgate::TorchScriptLimits& limits, std::string_view file, const std::vector<std::size_t>& cuts) {
  FindingList findings(64);
  CodeScanner scanner(limits, {&findings, 0, true, "archive/code/__torch__.py"});
  std::size_t at = 0;
  for (const std::size_t cut : cuts) {
    scanner.feed(reinterpret_cast<const unsigned char*>(file.data()) + at, cut - at);
    at = cut;
  }
  scanner.feed(reinterpret_cast<const unsigned char*>(file.data()) + at, file.size() - at);
  scanner.finish();
  tgfuzz::require(scanner.size() == file.size(), "size", std::to_string(scanner.size()));
  std::string out;
  int lex = 0;
  for (const auto& f : findings.items()) {
    const std::string_view id = tensorgate::rule_info(f.rule).id;
    tgfuzz::require(id == "TS.code" || id == "TS.code-lex", "rule", id);
    lex += id == "TS.code-lex";
    tgfuzz::require(f.offset && *f.offset <= file.size(), "offset", f.message);
    tgfuzz::require(f.message.size() < 1200, "message-length", f.message.substr(0, 200));
    tgfuzz::require(tgfuzz::valid_utf8(f.message), "message-utf8");
    out += std::string(id) + "@" + std::to_string(*f.offset) + " " + f.message + "\n";
  }
  tgfuzz::require(lex <= 1, "one-lex-finding", out);
  tgfuzz::require(scanner.lex_failed() == (lex == 1), "lex-failed", out);
  out += std::to_string(findings.dropped());
  return out;
}

std::string operators(const tensorgate::TorchScriptLimits& limits, std::string_view file, const std::vector<std::size_t>& cuts) {
  FindingList findings(64);
  tensorgate::detail::torchscript::OperatorNames names(limits, findings, 64, 0, true, "");
  std::size_t at = 0;
  for (const std::size_t cut : cuts) {
    names.feed(reinterpret_cast<const unsigned char*>(file.data()) + at, cut - at);
    at = cut;
  }
  names.feed(reinterpret_cast<const unsigned char*>(file.data()) + at, file.size() - at);
  names.finish();
  std::string out;
  for (const auto& f : findings.items()) {
    tgfuzz::require(f.rule == tensorgate::Rule::ts_code, "operator-rule");
    tgfuzz::require(f.offset && *f.offset <= file.size(), "operator-offset", f.message);
    out += std::to_string(*f.offset) + " " + f.message + "\n";
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const tgfuzz::Split s = tgfuzz::split_of(tgfuzz::as_text(data, size));
  for (const tensorgate::TorchScriptLimits limits : {tensorgate::TorchScriptLimits{}, tensorgate::TorchScriptLimits{2, 8, 4, 4}}) {
    const std::string whole = run(limits, s.file, {});
    tgfuzz::require(run(limits, s.file, s.cuts) == whole, "chunking", whole.substr(0, 400));
    if (s.file.size() <= 4096) {
      std::vector<std::size_t> every;
      for (std::size_t i = 1; i < s.file.size(); ++i) every.push_back(i);
      tgfuzz::require(run(limits, s.file, every) == whole, "bytewise", whole.substr(0, 400));
    }
    const std::string names = operators(limits, s.file, {});
    tgfuzz::require(operators(limits, s.file, s.cuts) == names, "operator-chunking", names.substr(0, 400));
  }
  return 0;
}
