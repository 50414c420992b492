// Prints the chat template lexer's tokens (core/src/chat_template/lexer.hpp) for a file, one a
// line, fed in pieces of STEP bytes (default: whole), for fuzz/jinja_differential.py:
//   ct_tokens FILE [STEP]
// V/B a {{ or {% tag begins, E it ends, N name, I number, O operator, S string (its decoded value
// in hex, its length, and flags: holds "__", begins with "_", ends with "_"), X a lex error.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "chat_template/lexer.hpp"

namespace {

using namespace tensorgate::detail::ct;

struct Dump final : TokenSink {
  void tag_begin(bool block, std::uint64_t) override { std::cout << (block ? "B\n" : "V\n"); }
  void tag_end(std::uint64_t) override { std::cout << "E\n"; }
  void token(const Token& t) override {
    switch (t.kind) {
      case TokenKind::name: std::cout << "N " << t.text << "\n"; break;
      case TokenKind::number: std::cout << "I\n"; break;
      case TokenKind::op: std::cout << "O " << t.text << "\n"; break;
      case TokenKind::string: {
        std::cout << "S ";
        for (const unsigned char c : t.text) {
          char hex[4];
          std::snprintf(hex, sizeof hex, "%02x", c);
          std::cout << hex;
        }
        std::cout << " " << t.length << " " << t.dunder << t.first_underscore << t.last_underscore << "\n";
        break;
      }
    }
  }
  void lex_error(std::uint64_t at, std::string_view what) override { std::cout << "X " << at << " " << what << "\n"; }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: ct_tokens FILE [STEP]\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "ct_tokens: cannot open %s\n", argv[1]);
    return 2;
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  Dump dump;
  Lexer lexer(dump, 256);
  std::size_t step = argc > 2 ? std::stoul(argv[2]) : text.size() + 1;
  if (step == 0) step = 1;
  for (std::size_t i = 0; i < text.size(); i += step) lexer.feed(std::string_view(text).substr(i, step));
  lexer.finish();
  return 0;
}
