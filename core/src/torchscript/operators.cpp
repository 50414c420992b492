#include "torchscript/operators.hpp"

#include <array>

#include "common/printable.hpp"

namespace tensorgate::detail::torchscript {
namespace {

struct Listed {
  std::string_view name, reason;
};

constexpr auto kFileOps = std::to_array<Listed>({
#define TS_FILE_OP(name, reason) {name, reason},
#define TS_NAMESPACE(name, reason)
#include "torchscript/operators.def"
#undef TS_FILE_OP
#undef TS_NAMESPACE
});

constexpr auto kNamespaces = std::to_array<Listed>({
#define TS_FILE_OP(name, reason)
#define TS_NAMESPACE(name, reason) {name, reason},
#include "torchscript/operators.def"
#undef TS_FILE_OP
#undef TS_NAMESPACE
});

}  // namespace

std::optional<std::string_view> file_operator(std::string_view op) {
  for (const Listed& l : kFileOps)
    if (l.name == op) return l.reason;
  return std::nullopt;
}

bool own_namespace(std::string_view ns) {
  for (const Listed& l : kNamespaces)
    if (l.name == ns) return true;
  return false;
}

std::optional<std::string> judge_operator(std::string_view ns, std::string_view op) {
  if (!own_namespace(ns))
    return ", an operator of the library " + quoted(ns, 80) +
           ", outside TorchScript's own namespaces: native code the loading process must have loaded";
  if (ns != "aten") return std::nullopt;
  if (const auto reason = file_operator(op)) return ": " + std::string(*reason);
  return std::nullopt;
}

}  // namespace tensorgate::detail::torchscript
