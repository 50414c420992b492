// PK.dangerous-global, PK.unknown-global, PK.policy-denied, PK.unresolved-global: GLOBAL and INST (names in the
// opcode's lines), STACK_GLOBAL (names from the stack: string constants, directly, through the
// memo, or from any earlier opcode that left them there), EXT1/2/4 (names in copyreg's
// registry, which no file can show). Each distinct global is judged once and gets one finding;
// its imports and calls are counted for the summary.
#include <string>

#include "pickle/global_judge.hpp"
#include "common/printable.hpp"
#include "pickle/scanner.hpp"
#include "pickle/torchscript_globals.hpp"
#include "tensorgate/utf8.hpp"

namespace tensorgate::detail::pickle {
namespace {

std::string_view kind_name(Kind k) {
  switch (k) {
    case Kind::none: return "None";
    case Kind::boolean: return "bool";
    case Kind::integer: return "int";
    case Kind::floating: return "float";
    case Kind::string: return "string";
    case Kind::bytes: return "bytes";
    case Kind::tuple: return "tuple";
    case Kind::list: return "list";
    case Kind::dict: return "dict";
    case Kind::set: return "set";
    case Kind::global: return "global";
    case Kind::object: return "call result";
    case Kind::persistent: return "persistent id";
    case Kind::tensor: return "tensor";
    case Kind::buffer: return "buffer";
    case Kind::unset: break;  // never on the stack
  }
  return "value";
}

bool identifier_path(std::string_view s) {
  if (s.empty()) return false;
  bool start = true;
  for (const char c : s) {
    const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    if (c == '.') {
      if (start) return false;
      start = true;
    } else if (alpha || (!start && c >= '0' && c <= '9')) {
      start = false;
    } else {
      return false;
    }
  }
  return !start;
}

}  // namespace

Value Scanner::import_global(std::string_view module, std::string_view name, std::string_view how) {
  ++globals_seen_;
  if (module == "torch")
    if (const auto d = torch_storage_dtype(name)) storage_class_bytes_ = d->bytes;
  if (identifier_path(module) && identifier_path(name)) {
    if (importable_++ == 0) first_importable_ = std::string(module) + "." + std::string(name);
  }
  NormalisedGlobal n = normalise_global(module, name);
  std::string path = n.module + "." + n.name;
  std::uint32_t index = kNoRef;
  GlobalVerdict verdict;
  if (const auto it = global_index_.find(path); it != global_index_.end()) {
    index = it->second;
    ++globals_[index].imports;
    return {Kind::global, static_cast<std::uint8_t>(globals_[index].verdict == GlobalVerdict::dangerous ? kDenied : 0), index, 0};
  }
  Judgement j;
  const TorchScriptGlobal ts = site_.deferred && !site_.deferred->full() ? torchscript_global(n.module, n.name)
                                                                         : TorchScriptGlobal::none;
  if (ts != TorchScriptGlobal::none) {
    // Judged by the archive's walker when it ends: allowed if the archive is TorchScript.
    site_.deferred->add(DeferredGlobal{n.module, n.name, ts, std::string(how), offset_of(op_pos_), site_.where, 0});
    j = {GlobalVerdict::unknown, "a TorchScript global, judged with the archive"};
  } else {
    j = judge_global(n.module, n.name, site_.policy.get());
  }
  verdict = j.verdict;
  const std::string shown = quoted(path, 120);
  const bool judged = ts == TorchScriptGlobal::none;
  if (judged && verdict == GlobalVerdict::dangerous) {
    site_.findings->add(j.by_policy ? Rule::pk_policy_denied : Rule::pk_dangerous_global, site_.where + std::string(how) + " at byte " +
                                                       std::to_string(offset_of(op_pos_)) + " imports " + shown + ": " + j.reason,
                        offset_of(op_pos_));
  } else if (judged && verdict == GlobalVerdict::unknown) {
    site_.findings->add(Rule::pk_unknown_global, site_.where + std::string(how) + " at byte " +
                                                     std::to_string(offset_of(op_pos_)) + " imports " + shown +
                                                     ", which is on neither list: loading the file imports it",
                        offset_of(op_pos_));
  }
  if (globals_.size() < limits_.max_globals) {
    index = static_cast<std::uint32_t>(globals_.size());
    summary_memory_ += path.size() * 2 + sizeof(PickleGlobal) + j.reason.size() + 32;
    globals_.push_back(PickleGlobal{std::move(n.module), std::move(n.name), verdict, std::move(j.reason), 1, 0});
    global_index_.emplace(std::move(path), index);
  } else {
    ++globals_dropped_;
  }
  return {Kind::global, static_cast<std::uint8_t>(verdict == GlobalVerdict::dangerous ? kDenied : 0), index, 0};
}

void Scanner::exec_global(std::string_view module, std::uint64_t module_len, std::string_view name,
                          std::uint64_t name_len, bool inst) {
  std::optional<std::size_t> mark;
  if (inst && !(mark = marker())) return;  // CPython looks for the MARK first
  Value g;
  if (module_len > module.size() || name_len > name.size()) {
    // No real module or attribute path is this long: a name built to be cut by scanners.
    ++globals_seen_;
    site_.findings->add(Rule::pk_dangerous_global,
                        site_.where + at_op() + " names a global of " + std::to_string(module_len) + " + " +
                            std::to_string(name_len) + " bytes, longer than any real one (a hostile shape): " +
                            quoted(module) + " " + quoted(name),
                        offset_of(op_pos_));
    g = {Kind::global, kDenied, kNoRef, 0};
  } else if (!is_valid_utf8(module) || !is_valid_utf8(name)) {
    return malformed(Rule::pk_argument, at_op() + "'s module or name is not UTF-8");
  } else {
    g = import_global(module, name, info_->name());
  }
  if (!inst) return void(push(g));
  count_call(g);  // INST instantiates the class with the items since the MARK
  m_.truncate(*mark);
  push({Kind::object, 0, g.ref, 0});
}

void Scanner::exec_stack_global() {
  if (!need(2)) return;
  const Value name = m_.pop();
  const Value module = m_.pop();
  const auto module_text = m_.text(module);
  const auto name_text = m_.text(name);
  if (module_text && name_text) {
    if (!is_valid_utf8(*module_text) || !is_valid_utf8(*name_text))
      return malformed(Rule::pk_argument, at_op() + "'s module or name is not UTF-8");
    return void(push(import_global(*module_text, *name_text, "STACK_GLOBAL")));
  }
  ++globals_seen_;
  const bool strings = module.kind == Kind::string && name.kind == Kind::string;
  if (strings && m_.kept_strings_exhausted()) {
    return abort_with("pickle-kept-bytes", "STACK_GLOBAL at byte " + std::to_string(offset_of(op_pos_)) +
                                               " names strings the scanner no longer keeps (Limits::pickle.max_kept_bytes)");
  }
  if (strings) {
    site_.findings->add(Rule::pk_dangerous_global,
                        site_.where + at_op() + " names a global of " + std::to_string(module.num) + " + " +
                            std::to_string(name.num) + " bytes, longer than any real one (a hostile shape)",
                        offset_of(op_pos_));
  } else {
    site_.findings->add(Rule::pk_unresolved_global,
                        site_.where + at_op() + " takes its module and name from a " + std::string(kind_name(module.kind)) +
                            " and a " + std::string(kind_name(name.kind)) +
                            ", not string constants: the global it imports cannot be known",
                        offset_of(op_pos_));
  }
  push({Kind::global, kDenied, kNoRef, 0});
}

void Scanner::exec_ext(std::uint64_t code) {
  ++globals_seen_;
  site_.findings->add(Rule::pk_unresolved_global,
                      site_.where + at_op() + " names the global of extension code " + std::to_string(code) +
                          " in copyreg's registry, which the file does not show",
                      offset_of(op_pos_));
  push({Kind::global, kDenied, kNoRef, 0});
}

void Scanner::count_call(const Value& callable) {
  if (callable.kind == Kind::global && callable.ref != kNoRef) ++globals_[callable.ref].calls;
}

}  // namespace tensorgate::detail::pickle
