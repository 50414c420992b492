#pragma once
// Attribute names without a double underscore that still lead from a template's values to the
// interpreter. Jinja's own sandbox refuses them (jinja2/sandbox.py: UNSAFE_GENERATOR_ATTRIBUTES,
// UNSAFE_COROUTINE_ATTRIBUTES, UNSAFE_ASYNC_GENERATOR_ATTRIBUTES, "mro" of a type, every attribute
// of a frame, traceback or code object, every name that begins with "_"); an unsandboxed
// Environment does not:
//  - a generator's frame: (xs|map('upper')).gi_frame.f_builtins.eval(...) runs code, since
//    map, select, selectattr, unique and other filters return generators;
//  - a macro's environment: m._environment.from_string(text).render() renders a template built
//    at render time, which no check of this one can see.
// Real chat templates name none of them.
#include <array>
#include <string_view>

namespace tensorgate::detail::ct {

inline constexpr std::array<std::string_view, 16> kInternalNames = {
    "gi_frame", "gi_code", "cr_frame", "cr_code", "ag_frame", "ag_code",   // generators, coroutines
    "f_globals", "f_builtins", "f_locals", "f_back", "tb_frame", "tb_next",  // frames, tracebacks
    "mro",                                                                  // a type's classes
    "_environment", "from_string", "_func",                                 // a Jinja macro's links
};
inline constexpr std::size_t kInternalNameMax = 12;  // the longest of them

constexpr bool is_internal_name(std::string_view name) {
  for (const std::string_view n : kInternalNames)
    if (name == n) return true;
  return false;
}

}  // namespace tensorgate::detail::ct
