#include "pickle/torchscript_globals.hpp"

#include <array>

#include "pickle/global_judge.hpp"

namespace tensorgate::detail::pickle {
namespace {

constexpr std::string_view kRoot = "__torch__";

constexpr std::array<std::string_view, 6> kListBuilders = {"build_intlist",        "build_tensorlist", "build_doublelist",
                                                           "build_boollist",       "build_tensor_from_id",
                                                           "restore_type_tag"};

bool dunder(std::string_view c) { return c.size() > 4 && c.starts_with("__") && c.ends_with("__"); }

bool identifier(std::string_view c) {
  if (c.empty() || (c[0] >= '0' && c[0] <= '9')) return false;
  for (const char ch : c)
    if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_')) return false;
  return true;
}

// Every component of the dotted `path` an identifier and no __x__.
bool plain_components(std::string_view path) {
  for (std::size_t at = 0;;) {
    const std::size_t dot = path.find('.', at);
    const std::string_view c = path.substr(at, dot == std::string_view::npos ? std::string_view::npos : dot - at);
    if (!identifier(c) || dunder(c)) return false;
    if (dot == std::string_view::npos) return true;
    at = dot + 1;
  }
}

}  // namespace

TorchScriptGlobal torchscript_global(std::string_view module, std::string_view name) {
  if (module == "torch.jit._pickle") {
    for (const std::string_view b : kListBuilders)
      if (name == b) return TorchScriptGlobal::list_builder;
    return TorchScriptGlobal::none;
  }
  if (!module.starts_with(kRoot)) return TorchScriptGlobal::none;
  std::string_view rest = module.substr(kRoot.size());
  if (!rest.empty() && !rest.starts_with('.')) return TorchScriptGlobal::none;
  if (!plain_components(name)) return TorchScriptGlobal::none;  // a dotted name walks attributes
  if (rest.empty()) return TorchScriptGlobal::script_class;
  rest.remove_prefix(1);
  if (!plain_components(rest)) return TorchScriptGlobal::none;
  // A class path that spells a denied module or name (__torch__.os.system) is judged as the
  // global it imitates.
  if (judge_global(rest, name).verdict == GlobalVerdict::dangerous) return TorchScriptGlobal::none;
  return TorchScriptGlobal::script_class;
}

std::string torchscript_code_file(std::string_view module) {
  std::string file = "code/";
  for (const char c : module) file += c == '.' ? '/' : c;
  return file + ".py";
}

}  // namespace tensorgate::detail::pickle
