#pragma once
// A TorchScript code file (<archive>/code/**.py) read as it streams: a push lexer of
// TorchScript's Python subset that keeps O(1) state (one dotted name cut at
// Limits::torchscript.max_name_bytes, an explicit stack of open brackets bounded by
// max_bracket_depth; no recursion), and the rules over its tokens:
//   TS.code-lex  bytes that do not lex: not UTF-8, a NUL, a string literal left open at the end
//                of its line or of the file, a character that starts no token, a backslash
//                that does not end its line, brackets that do not balance or nest too deep;
//                the first one stops the lexer (the rest of the file is only counted);
//   TS.code      a dotted name that reaches an operator that reads or writes files, or one of
//                a custom operator library (operators.def), and import / from ... import of a
//                module or name of the pickle deny-lists.
// Dotted names are followed through whitespace, comments, line continuations and parentheses
// around their head: `(torch) . from_file` is torch.from_file.
#include <cstdint>
#include <string>
#include <string_view>

#include "common/finding_list.hpp"
#include "tensorgate/limits.hpp"

namespace tensorgate::detail::torchscript {

// Where the findings go: `base` the file offset of the file's first byte when `exact` (stored),
// else where every finding points (a deflated entry's local header); `file` its entry name.
struct CodeSite {
  FindingList* findings = nullptr;
  std::uint64_t base = 0;
  bool exact = true;
  std::string file;
};

class CodeScanner {
 public:
  CodeScanner(const TorchScriptLimits& limits, CodeSite site);

  void feed(const unsigned char* p, std::size_t n);
  void finish();  // the file has ended

  bool lex_failed() const { return state_ == St::failed; }
  std::uint64_t size() const { return pos_; }
  std::uint64_t code_findings() const { return code_findings_; }

 private:
  enum class St : std::uint8_t { between, ident, number, string_open, string, comment, backslash, bang, failed };
  enum class Tok : std::uint8_t { name, dot, open_paren, open_other, close_paren, close_other, other, end_line };
  enum class Path : std::uint8_t { none, name, dot, wrapped };
  enum class Stmt : std::uint8_t { start, normal, import_modules, from_module, from_names };

  // code_lexer.cpp: bytes to tokens.
  void lex(unsigned char b);
  void lex_between(unsigned char b);
  void lex_word(unsigned char b);
  void lex_string_open(unsigned char b, bool lf_after_cr);
  void lex_string(unsigned char b);
  void end_ident();
  bool utf8_ok(unsigned char b);
  void newline();
  void open(char c);
  void close(char c);
  void fail(std::string what);
  std::uint64_t offset() const { return site_.exact ? site_.base + pos_ : site_.base; }

  // code_rules.cpp: tokens to findings.
  void token(Tok t, std::string_view text = {});
  void keyword(std::string_view k);
  void flush_path();
  void path_done(std::string_view path);
  void judge_path(std::string_view path);
  bool judge_import(std::string_view module, std::string_view name);  // true: a finding
  void code_finding(std::string what);

  TorchScriptLimits limits_;
  CodeSite site_;
  St state_ = St::between;
  std::uint64_t pos_ = 0;   // bytes taken
  std::uint64_t line_ = 1;
  bool cr_ = false;         // the last byte was '\r' (a "\r\n" is one line end)

  // UTF-8: continuation bytes still due, and the range the next one must fall in.
  unsigned utf8_left_ = 0;
  unsigned char utf8_lo_ = 0x80, utf8_hi_ = 0xBF;

  // The token being read.
  std::string ident_;       // an identifier's first max_name_bytes bytes
  bool number_hex_ = false;
  unsigned char prev_ = 0;  // the byte before, inside a number
  char quote_ = 0;
  bool triple_ = false, escape_ = false;
  unsigned quote_run_ = 0;  // closing quotes seen in a row (triple-quoted)
  std::string brackets_;    // the open brackets, innermost last

  // The dotted name being followed (path_ cut at max_name_bytes) and the statement.
  Path path_state_ = Path::none;
  std::string path_;
  std::uint64_t path_line_ = 0;
  std::uint32_t lead_parens_ = 0, path_lead_ = 0, closes_ = 0;
  Stmt stmt_ = Stmt::start;
  bool alias_next_ = false, from_denied_ = false;
  std::string from_module_;
  std::uint64_t code_findings_ = 0;
};

}  // namespace tensorgate::detail::torchscript
