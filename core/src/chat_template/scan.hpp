#pragma once
// One chat template, streamed: the lexer feeding the CT analysis. Everything that judges a
// template (the GGUF validator for tokenizer.chat_template, the file checks for .jinja and
// tokenizer_config.json) goes through this.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "chat_template/analysis.hpp"
#include "chat_template/lexer.hpp"
#include "tensorgate/limits.hpp"
#include "tensorgate/rules.hpp"

namespace tensorgate::detail::ct {

struct Result {
  Rule rule;
  std::uint64_t offset;  // in the template
  std::string message;  // what the template does, without naming it: "reads the name ..."
};

class TemplateScan {
 public:
  explicit TemplateScan(const ChatTemplateLimits& limits = {})
      : analysis_(limits.max_bracket_depth, limits.max_names), lexer_(analysis_, limits.max_bracket_depth) {}
  TemplateScan(const TemplateScan&) = delete;
  TemplateScan& operator=(const TemplateScan&) = delete;

  void reset() {
    lexer_.reset();
    analysis_.reset();
  }
  void feed(std::string_view bytes) { lexer_.feed(bytes); }
  std::uint64_t bytes() const { return lexer_.bytes(); }
  // The template has ended. At most one result per CT rule, in catalogue order; the caller puts
  // the template's name before each message.
  std::vector<Result> finish();

 private:
  Analysis analysis_;
  Lexer lexer_;
};

}  // namespace tensorgate::detail::ct
