// CTR.alias: the aliases after the variables, from version 3 (the loader's
// register_variable_alias calls in src/models/model.cc): a uint32 count, then per alias two
// strings, its name and the name it stands for. The loader looks the target up among what it has
// registered so far (the variables, then the aliases before) and drops an alias whose target is
// missing, or whose own name is taken, without a word.
#include "common/printable.hpp"
#include "ctranslate2/validator.hpp"

namespace tensorgate::detail::ctranslate2 {
namespace {

std::string num(std::uint64_t v) { return std::to_string(v); }

}  // namespace

void CTranslate2Validator::on_alias_count(std::uint32_t n) {
  if (n > limits_.ctranslate2.max_aliases)
    return stop(Rule::ctr_header,
                "the file announces " + num(n) + " aliases, more than Limits::ctranslate2.max_aliases (" +
                    num(limits_.ctranslate2.max_aliases) + ")",
                field_at_);
  summary_.alias_count = n;
  next_alias();
}

void CTranslate2Validator::next_alias() {
  if (aliases_read_ == summary_.alias_count) {
    step_ = Step::done;
    return;
  }
  alias_at_ = pos_;
  expect(Step::alias_length, 2);
}

void CTranslate2Validator::on_alias_name() {
  alias_ = string_value(Rule::ctr_alias, "an alias");
  expect(Step::target_length, 2);
}

void CTranslate2Validator::on_target_name() {
  const std::string target = string_value(Rule::ctr_alias, "an alias's target");
  const std::string name = quoted(alias_);
  if (!knows(target))
    fail(Rule::ctr_alias,
         "alias " + name + " stands for " + quoted(target) +
             ", which is no variable of the file (nor an alias before it): CTranslate2 drops the alias, and the model lacks that weight",
         alias_at_, alias_);
  bool fresh = true;
  if (!keep_name(alias_, fresh)) return;
  if (!fresh)
    fail(Rule::ctr_alias, "alias " + name + " has the name of a variable or an alias before it: the loader keeps the first and drops this one",
         alias_at_, alias_);
  if (summary_.aliases.size() < limits_.ctranslate2.max_listed_variables) {
    if (!hold(alias_.size() + target.size() + sizeof(CTranslate2Alias))) return;
    summary_.aliases.push_back(CTranslate2Alias{alias_, target});
  } else {
    ++summary_.aliases_not_listed;
  }
  ++aliases_read_;
  next_alias();
}

}  // namespace tensorgate::detail::ctranslate2
