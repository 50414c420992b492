#pragma once
// The operators TS.code reports (operators.def): those of aten that read or write files, and
// those of a namespace outside TorchScript's own (a custom operator library).
#include <optional>
#include <string>
#include <string_view>

namespace tensorgate::detail::torchscript {

// Why aten's `op` reads or writes a file, or nothing.
std::optional<std::string_view> file_operator(std::string_view op);
// Whether `ns` is one of TorchScript's own operator namespaces.
bool own_namespace(std::string_view ns);
// What TS.code says of the operator `ns`::`op` (after "names "/"calls " and its name), or nothing.
std::optional<std::string> judge_operator(std::string_view ns, std::string_view op);

}  // namespace tensorgate::detail::torchscript
