#pragma once
// Judging a global a pickle imports: normalise its names as CPython's _compat_pickle does
// (compat_names.def), then consult the deny-lists (global_deny_stdlib.def, global_deny_ml.def),
// the names denied wherever they live (global_shapes.def), the allow-list (global_lists.def)
// and the hostile shapes (a __x__ component, a module's alias of a denied module, a name with a
// dot: an attribute walk).
#include <string>
#include <string_view>

#include "tensorgate/pickle.hpp"

namespace tensorgate::detail::pickle {

struct NormalisedGlobal {
  std::string module;
  std::string name;
};
NormalisedGlobal normalise_global(std::string_view module, std::string_view name);

struct Judgement {
  GlobalVerdict verdict = GlobalVerdict::unknown;
  std::string reason;  // the list entry's reason, or the hostile shape
};
// `module` and `name` as normalise_global returns them.
Judgement judge_global(std::string_view module, std::string_view name);

}  // namespace tensorgate::detail::pickle
