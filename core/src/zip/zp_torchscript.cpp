// A TorchScript archive (TS.torchscript: an entry <archive>/code/... or <archive>/bytecode.pkl)
// and the TorchScript globals its pickles import (pickle/torchscript_globals.hpp), judged when the
// archive ends: data.pkl streams before code/, so only then is it known whether the archive is
// TorchScript and which classes its code files define.
//   In a TorchScript archive: torch.jit._pickle's list builders are allowed; a class
//   __torch__.<path>.<Class> is allowed when its module's code file <archive>/code/__torch__/<path>.py
//   is in the archive, else PK.unknown-global (torch.jit.load finds it only among classes the
//   loading process registered).
//   In any other zip: judged as any pickle's globals (PK.dangerous-global: a __torch__ component,
//   the denied torch.jit).
// The summaries of the pickles kept (their globals' verdicts, whether they are valid) are brought
// in line with the judgement.
#include <string>

#include "common/ascii_case.hpp"
#include "common/printable.hpp"
#include "common/text_counts.hpp"
#include "pickle/global_judge.hpp"
#include "torchscript/entry_names.hpp"
#include "zip/validator.hpp"

namespace tensorgate::detail::zip {
namespace {

std::string settled_key(std::string_view entry, std::string_view module, std::string_view name) {
  std::string key(entry.substr(0, 512));
  key += '\n';
  key += module;
  key += '.';
  key += name;
  return key;
}

}  // namespace

void ZipValidator::note_torchscript_entry(std::string_view name) {
  const torchscript::EntryRole role = torchscript::entry_role(name);
  if (role == torchscript::EntryRole::none) return;
  if (!torchscript_at_) {
    torchscript_at_ = cur_.offset;
    torchscript_archive_ = std::string(torchscript::archive_folder(name).substr(0, 512));
  }
  if (role == torchscript::EntryRole::bytecode) bytecode_ = true;
}

void ZipValidator::note_code_file() {
  const std::string_view name = name_of(locals_.back());
  if (!charge(sizeof(std::uint32_t) + name.size() + 32)) return;
  code_entries_.push_back(static_cast<std::uint32_t>(locals_.size() - 1));
  code_folded_.insert(folded(name));
}

void ZipValidator::settle_torchscript() {
  if (settled_) return;
  settled_ = true;
  if (torchscript_at_)
    add(Rule::ts_torchscript,
        "a TorchScript archive (" + quoted(torchscript_archive_, 80) + (bytecode_ ? " with bytecode.pkl" : "") + ", " +
            count_of(code_entries_.size(), "code file") + "): loading it runs its code; torch.load(weights_only=True) "
            "handed such archives to torch.jit.load until PyTorch 2.6 (CVE-2025-32434)",
        *torchscript_at_);
  // The verdicts, keyed by entry and global, are held until the kept summaries have them.
  if (!deferred_.items().empty() && !charge(2 * deferred_.heap_bytes())) return;
  Settled settled;
  for (const pickle::DeferredGlobal& g : deferred_.items()) judge_deferred(g, settled);
  apply_settled(settled);
}

void ZipValidator::judge_deferred(const pickle::DeferredGlobal& g, Settled& settled) {
  const std::string path = g.module + "." + g.name;
  const std::string head = g.where + g.how + " at byte " + std::to_string(g.offset) + " imports " + quoted(path, 120);
  const std::string_view entry = g.tag < locals_.size() ? name_of(locals_[g.tag]) : std::string_view();
  const std::string key = settled_key(entry, g.module, g.name);
  if (!torchscript_at_) {
    pickle::Judgement j = pickle::judge_global(g.module, g.name);
    if (j.verdict == GlobalVerdict::dangerous) add(Rule::pk_dangerous_global, head + ": " + j.reason, g.offset);
    else if (j.verdict == GlobalVerdict::unknown)
      add(Rule::pk_unknown_global, head + ", which is on neither list: loading the file imports it", g.offset);
    settled.insert_or_assign(key, SettledGlobal{j.verdict, std::move(j.reason)});
    return;
  }
  if (g.kind == pickle::TorchScriptGlobal::list_builder) {
    settled.insert_or_assign(key, SettledGlobal{GlobalVerdict::allowed, "rebuilds a typed list of a TorchScript archive"});
    return;
  }
  note_script_class(path);
  const std::string_view folder = entry.empty() ? std::string_view(torchscript_archive_) : torchscript::archive_folder(entry);
  const std::string file = std::string(folder) + "/" + pickle::torchscript_code_file(g.module);
  if (code_folded_.contains(folded(file))) {
    settled.insert_or_assign(key, SettledGlobal{GlobalVerdict::allowed, "a class of the archive's code, " + file});
    return;
  }
  add(Rule::pk_unknown_global,
      head + ", a TorchScript class that no code file of the archive defines (no " + quoted(file, 120) +
          "): torch.jit.load finds it only among the classes the loading process registered",
      g.offset);
  settled.insert_or_assign(key, SettledGlobal{GlobalVerdict::unknown, "a TorchScript class without its code file " + file});
}

void ZipValidator::note_script_class(const std::string& path) {
  if (script_class_set_.contains(path)) return;
  if (script_classes_.size() >= limits_.torchscript.max_listed) {
    ++script_classes_not_listed_;  // counted once per import of a class past the bound
    return;
  }
  if (!charge(2 * (sizeof(std::string) + path.size()) + 32)) return;
  script_class_set_.insert(path);
  script_classes_.push_back(path);
}

// The kept pickle summaries: each TorchScript global's verdict and reason as judged; a pickle
// with a dangerous one is no longer valid (nor, if it is data.pkl, the PyTorch archive's).
void ZipValidator::apply_settled(const Settled& settled) {
  if (settled.empty()) return;
  for (ZipPickle& p : pickles_) {
    for (PickleGlobal& g : p.summary.globals) {
      const auto it = settled.find(settled_key(p.entry, g.module, g.name));
      if (it == settled.end()) continue;
      g.verdict = it->second.verdict;
      g.reason = it->second.reason;
      if (g.verdict == GlobalVerdict::dangerous) p.valid = false;
    }
  }
  if (!archive_ || torchscript_at_) return;
  for (const pickle::DeferredGlobal& g : deferred_.items()) {
    if (g.tag >= locals_.size()) continue;
    const std::string_view entry = name_of(locals_[g.tag]);
    const auto it = settled.find(settled_key(entry, g.module, g.name));
    if (it != settled.end() && it->second.verdict == GlobalVerdict::dangerous && same_name_nocase(entry, *archive_ + "/data.pkl"))
      data_pkl_valid_ = false;
  }
}

}  // namespace tensorgate::detail::zip
