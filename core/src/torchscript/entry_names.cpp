#include "torchscript/entry_names.hpp"

#include "common/ascii_case.hpp"

namespace tensorgate::detail::torchscript {

std::string_view archive_folder(std::string_view name) {
  const std::size_t slash = name.find('/');
  return slash == std::string_view::npos ? std::string_view() : name.substr(0, slash);
}

EntryRole entry_role(std::string_view name) {
  const std::size_t slash = name.find('/');
  if (slash == std::string_view::npos || slash == 0) return EntryRole::none;
  const std::string_view rest = name.substr(slash + 1);
  if (same_name_nocase(rest, "bytecode.pkl")) return EntryRole::bytecode;
  constexpr std::string_view kCode = "code/";
  if (rest.size() <= kCode.size() || !same_name_nocase(rest.substr(0, kCode.size()), kCode)) return EntryRole::none;
  if (rest.back() == '/') return EntryRole::marker;  // a directory entry
  if (rest.size() > kCode.size() + 3 && same_name_nocase(rest.substr(rest.size() - 3), ".py")) return EntryRole::code;
  return EntryRole::marker;
}

}  // namespace tensorgate::detail::torchscript
