// TS.code over a code file's tokens: the dotted names it follows (through parentheses around
// their head), the operators they reach (operators.def), and import statements against the
// pickle deny-lists.
#include <array>

#include "common/printable.hpp"
#include "pickle/global_judge.hpp"
#include "torchscript/code_lexer.hpp"
#include "torchscript/operators.hpp"

namespace tensorgate::detail::torchscript {
namespace {

// Python's keywords: never part of a dotted name.
constexpr std::array<std::string_view, 35> kKeywords = {
    "False", "None",   "True",   "and",    "as",       "assert", "async",  "await", "break",
    "class", "continue", "def",  "del",    "elif",     "else",   "except", "finally", "for",
    "from",  "global", "if",     "import", "in",       "is",     "lambda", "nonlocal", "not",
    "or",    "pass",   "raise",  "return", "try",      "while",  "with",   "yield"};

bool is_keyword(std::string_view s) {
  for (const std::string_view k : kKeywords)
    if (k == s) return true;
  return false;
}

// The dotted name's component `i`, or empty.
std::string_view component(std::string_view path, std::size_t i) {
  std::size_t at = 0;
  for (; i > 0; --i) {
    const std::size_t dot = path.find('.', at);
    if (dot == std::string_view::npos) return {};
    at = dot + 1;
  }
  return path.substr(at, path.find('.', at) - at);
}

}  // namespace

void CodeScanner::token(Tok t, std::string_view text) {
  if (t == Tok::name && is_keyword(text)) {
    flush_path();
    lead_parens_ = 0;
    return keyword(text);
  }
  switch (t) {
    case Tok::name:
      if (path_state_ == Path::dot) {
        if (path_.size() < limits_.max_name_bytes) path_ += text.substr(0, limits_.max_name_bytes - path_.size());
      } else {
        flush_path();
        path_.assign(text);
        path_line_ = line_;
        path_lead_ = lead_parens_;
      }
      path_state_ = Path::name;
      break;
    case Tok::dot:
      if (path_state_ == Path::name || path_state_ == Path::wrapped) {
        path_lead_ -= closes_;
        closes_ = 0;
        if (path_.size() < limits_.max_name_bytes) path_ += '.';
        path_state_ = Path::dot;
      } else {
        flush_path();
      }
      break;
    case Tok::close_paren:
      if ((path_state_ == Path::name || path_state_ == Path::wrapped) && closes_ < path_lead_) {
        ++closes_;
        path_state_ = Path::wrapped;  // (torch).from_file: the name may go on
      } else {
        flush_path();
      }
      break;
    case Tok::open_paren:
      flush_path();
      ++lead_parens_;
      if (stmt_ == Stmt::start) stmt_ = Stmt::normal;
      return;
    default: flush_path(); break;
  }
  if (t != Tok::name) lead_parens_ = 0;
  if (t == Tok::end_line) {
    stmt_ = Stmt::start;
    alias_next_ = false;
    from_module_.clear();
  } else if (stmt_ == Stmt::start && t != Tok::name) {
    stmt_ = Stmt::normal;
  }
}

void CodeScanner::keyword(std::string_view k) {
  if (stmt_ == Stmt::start && k == "import") {
    stmt_ = Stmt::import_modules;
  } else if (stmt_ == Stmt::start && k == "from") {
    stmt_ = Stmt::from_module;
    from_module_.clear();
    from_denied_ = false;
  } else if (stmt_ == Stmt::from_module && k == "import") {
    stmt_ = Stmt::from_names;
  } else if (k == "as" && (stmt_ == Stmt::import_modules || stmt_ == Stmt::from_names)) {
    alias_next_ = true;
  } else if (stmt_ == Stmt::start) {
    stmt_ = Stmt::normal;
  }
}

void CodeScanner::flush_path() {
  if (path_state_ == Path::none) return;
  if (path_state_ == Path::dot && !path_.empty() && path_.back() == '.') path_.pop_back();
  path_state_ = Path::none;
  closes_ = 0;
  path_done(path_);
}

void CodeScanner::path_done(std::string_view path) {
  switch (stmt_) {
    case Stmt::import_modules:
    case Stmt::from_names:
      if (alias_next_) {
        alias_next_ = false;
        return;
      }
      if (stmt_ == Stmt::import_modules) judge_import(path, {});
      else if (!from_denied_) judge_import(from_module_, path);
      return;
    case Stmt::from_module:
      if (from_module_.empty()) {
        from_module_ = path;
        from_denied_ = judge_import(path, {});
      }
      return;
    case Stmt::start: stmt_ = Stmt::normal; [[fallthrough]];
    case Stmt::normal: return judge_path(path);
  }
}

// torch.<file op>, torch.ops.<namespace>.<op>, ops.<namespace>.<op> and torch.classes.<namespace>.*.
void CodeScanner::judge_path(std::string_view path) {
  const std::string_view head = component(path, 0);
  std::string_view ns, op;
  if (head == "torch" && component(path, 1) == "ops") {
    ns = component(path, 2);
    op = component(path, 3);
  } else if (head == "ops") {
    ns = component(path, 1);
    op = component(path, 2);
  } else if (head == "torch" && component(path, 1) == "classes") {
    // torch.classes.<namespace>.<Class>: a custom C++ class (torchbind) a library registered.
    const std::string_view lib = component(path, 2);
    if (!lib.empty() && !own_namespace(lib))
      code_finding("uses " + quoted(path, 120) + ", a class of the library " + quoted(lib, 80) +
                   ", outside TorchScript's own namespaces: native code the loading process must have loaded");
    return;
  } else if (head == "torch") {
    if (const auto reason = file_operator(component(path, 1)))
      code_finding("calls " + quoted(path, 120) + ": " + std::string(*reason));
    return;
  } else {
    return;
  }
  if (ns.empty()) return;
  if (const auto said = judge_operator(ns, op)) code_finding("calls " + quoted(path, 120) + *said);
}

// `import module` (name empty) or `from module import name`, against the pickle deny-lists.
bool CodeScanner::judge_import(std::string_view module, std::string_view name) {
  if (module.empty() || module.starts_with('.')) return false;
  // A module alone is judged as a global of it whose name no list holds.
  const pickle::NormalisedGlobal n = pickle::normalise_global(module, name.empty() ? "<module>" : name);
  const pickle::Judgement j = pickle::judge_global(n.module, n.name);
  if (j.verdict != GlobalVerdict::dangerous) return false;
  const std::string what = name.empty() ? "the module " + quoted(module, 120) : quoted(std::string(module) + "." + std::string(name), 120);
  code_finding("imports " + what + ": " + j.reason);
  return true;
}

void CodeScanner::code_finding(std::string what) {
  ++code_findings_;
  site_.findings->add(Rule::ts_code, "code file " + quoted(site_.file, 120) + ", line " + std::to_string(path_line_) + ": " + what,
                      offset());
}

}  // namespace tensorgate::detail::torchscript
