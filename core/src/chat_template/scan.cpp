#include "chat_template/scan.hpp"

namespace tensorgate::detail::ct {

std::vector<Result> TemplateScan::finish() {
  lexer_.finish();
  analysis_.finish();
  std::vector<Result> out;
  const auto add = [&](Rule rule, const Hit& h, std::string_view why) {
    if (h.count == 0) return;
    std::string m = h.what;
    if (!why.empty()) m += ": " + std::string(why);
    if (h.count > 1) m += " (and " + std::to_string(h.count - 1) + " more)";
    out.push_back(Result{rule, h.first, std::move(m)});
  };
  add(Rule::ct_python_internals, analysis_.internals,
      "Python internals, which a renderer without a sandbox lets run code (CVE-2024-34359)");
  add(Rule::ct_attr_filter, analysis_.attr_filter, "an attribute named by a value, as payloads name the ones they build");
  add(Rule::ct_computed_subscript, analysis_.subscript, "Jinja falls back to getattr, so a built name reaches any attribute");
  add(Rule::ct_computed_attribute, analysis_.attribute, "the filter reads the attribute the value names, dotted paths included");
  add(Rule::ct_str_format, analysis_.str_format, "str.format reads the attributes its fields name, unsandboxed");
  if (analysis_.lex.count > 0) {
    Hit lex = analysis_.lex;
    lex.what = "does not lex: " + lex.what;
    add(Rule::ct_lex, lex, "");
  }
  return out;
}

}  // namespace tensorgate::detail::ct
