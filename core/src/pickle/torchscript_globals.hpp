#pragma once
// TorchScript's own globals. torch.jit.save pickles a scripted module's objects as instances of
// the classes its code files define, named __torch__.<path>.<Class> (torch.jit.load resolves them
// in the archive's compilation unit, never by a Python import), and lists through
// torch.jit._pickle's builders. In a plain pickle both are hostile (a __x__ component, the denied
// torch.jit); in a TorchScript archive they are its shape. A zip's pickles stream before the
// walk knows whether the archive is TorchScript (data.pkl comes before code/), so a scanner given
// a DeferredGlobals (ScanSite::deferred) records these globals there instead of judging them, and
// the walker judges them when the archive ends (core/src/zip/zp_torchscript.cpp).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tensorgate::detail::pickle {

enum class TorchScriptGlobal : std::uint8_t { none, script_class, list_builder };

// What `module`.`name` (normalised) is to TorchScript: a class of the archive's code (module
// __torch__ or __torch__.<dotted>, a name without a dot, no __x__ component after __torch__,
// and nothing after __torch__ that the deny-lists name), one of torch.jit._pickle's list
// builders (build_intlist, build_tensorlist, build_doublelist, build_boollist,
// build_tensor_from_id, restore_type_tag), or neither (judged as any global).
TorchScriptGlobal torchscript_global(std::string_view module, std::string_view name);

// The code file that defines the classes of module `module` (__torch__.a.b: code/__torch__/a/b.py;
// __torch__: code/__torch__.py), relative to the archive's folder.
std::string torchscript_code_file(std::string_view module);

struct DeferredGlobal {
  std::string module, name;
  TorchScriptGlobal kind = TorchScriptGlobal::none;
  std::string how;            // the opcode: "GLOBAL", "STACK_GLOBAL", "INST"
  std::uint64_t offset = 0;   // the opcode's file offset
  std::string where;          // the scanner's message prefix
  std::uint32_t tag = 0;      // the owner's (the zip walker's entry index)
};

// The globals scanners left to their owner, up to a bound (Limits::torchscript
// .max_deferred_globals); past it scanners judge them at once.
class DeferredGlobals {
 public:
  explicit DeferredGlobals(std::uint64_t cap) : cap_(cap) {}
  bool full() const { return items_.size() >= cap_; }
  void add(DeferredGlobal g) {
    bytes_ += sizeof(DeferredGlobal) + g.module.size() + g.name.size() + g.where.size() + g.how.size();
    g.tag = tag_;
    items_.push_back(std::move(g));
  }
  void set_tag(std::uint32_t tag) { tag_ = tag; }  // for the globals added from now on
  const std::vector<DeferredGlobal>& items() const { return items_; }
  std::size_t heap_bytes() const { return bytes_; }

 private:
  std::uint64_t cap_;
  std::uint32_t tag_ = 0;
  std::size_t bytes_ = 0;
  std::vector<DeferredGlobal> items_;
};

}  // namespace tensorgate::detail::pickle
