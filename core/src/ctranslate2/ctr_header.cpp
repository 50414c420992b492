// CTR.version and CTR.header: the binary version, the spec name and revision (version 2 on), the
// variable count; and the strings every record shares (a uint16 length that counts a trailing
// NUL, then the bytes: the writer's _write_string, the loader's consume<std::string>).
#include "common/printable.hpp"
#include "ctranslate2/validator.hpp"

namespace tensorgate::detail::ctranslate2 {
namespace {

constexpr std::uint32_t kNewestVersion = 6;  // include/ctranslate2/models/model.h, current_binary_version

std::string num(std::uint64_t v) { return std::to_string(v); }

}  // namespace

void CTranslate2Validator::on_version(std::uint32_t v) {
  if (v < 1 || v > kNewestVersion)
    return stop(Rule::ctr_version,
                "binary version " + num(v) + ": the reader follows versions 1 to " + num(kNewestVersion) +
                    " (CTranslate2 refuses a version past its own)",
                field_at_);
  have_version_ = true;
  summary_.binary_version = v;
  if (v >= 2) return expect(Step::spec_length, 2);
  summary_.spec_revision = 1;  // version 1 has neither: the loader assumes revision 1
  expect(Step::variable_count, 4);
}

void CTranslate2Validator::on_spec_name() {
  summary_.spec_name = string_value(Rule::ctr_header, "the spec name");
  expect(Step::revision, 4);
}

void CTranslate2Validator::on_revision(std::uint32_t r) {
  summary_.spec_revision = r;
  expect(Step::variable_count, 4);
}

void CTranslate2Validator::on_variable_count(std::uint32_t n) {
  if (n > limits_.ctranslate2.max_variables)
    return stop(Rule::ctr_header,
                "the file announces " + num(n) + " variables, more than Limits::ctranslate2.max_variables (" +
                    num(limits_.ctranslate2.max_variables) + ")",
                field_at_);
  summary_.variable_count = n;
  next_variable();
}

// After the last variable: the aliases from version 3, else the end.
void CTranslate2Validator::after_variables() {
  if (summary_.binary_version >= 3) return expect(Step::alias_count, 4);
  step_ = Step::done;
}

bool CTranslate2Validator::string_length(std::uint16_t length, Rule rule, const char* what) {
  if (length == 0) {
    stop(rule, std::string(what) + " has length 0: a stored string counts its NUL, and CTranslate2 refuses an empty one",
         field_at_);
    return false;
  }
  if (length - 1u > limits_.ctranslate2.max_name_bytes) {
    stop(rule, std::string(what) + " is " + num(length - 1u) + " bytes long, more than Limits::ctranslate2.max_name_bytes (" +
                   num(limits_.ctranslate2.max_name_bytes) + ")",
         field_at_);
    return false;
  }
  return true;
}

std::string CTranslate2Validator::string_value(Rule rule, const char* what) {
  const std::uint64_t at = field_at_ - 2;  // its length field's
  std::string s = buf_.substr(0, buf_.size() - 1);
  if (buf_.back() != '\0')
    fail(rule, std::string(what) + " " + quoted(buf_) + " does not end with a NUL: the loader drops its last byte, which the writer never stores",
         at);
  else if (s.empty())
    fail(rule, std::string(what) + " is empty", at);
  return s;
}

bool CTranslate2Validator::keep_name(std::string_view name, bool& fresh) {
  fresh = !names_.contains(name);
  if (!fresh) return true;
  // The string, its place in the deque and in the set.
  if (!hold(name.size() + sizeof(std::string) + 2 * sizeof(std::string_view))) return false;
  kept_.emplace_back(name);
  names_.insert(kept_.back());
  return true;
}

}  // namespace tensorgate::detail::ctranslate2
