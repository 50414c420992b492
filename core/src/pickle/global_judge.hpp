#pragma once
// Judging a global a pickle imports: normalise its names as CPython's _compat_pickle does
// (compat_names.def), then consult the deny-lists (global_deny_stdlib.def, global_deny_ml.def),
// the names denied wherever they live (global_shapes.def), the allow-list (global_lists.def)
// and the hostile shapes (a __x__ component, a module's alias of a denied module, a name with a
// dot: an attribute walk), and the policy in force (tensorgate/policy.hpp): its denials after the
// built-in ones, its allowances after the hostile shapes, so that no policy allows what the
// built-in lists or shapes deny.
#include <optional>
#include <string>
#include <string_view>

#include "tensorgate/pickle.hpp"
#include "tensorgate/policy.hpp"

namespace tensorgate::detail::pickle {

struct NormalisedGlobal {
  std::string module;
  std::string name;
};
NormalisedGlobal normalise_global(std::string_view module, std::string_view name);

struct Judgement {
  GlobalVerdict verdict = GlobalVerdict::unknown;
  std::string reason;  // the list entry's reason, or the hostile shape
  bool by_policy = false;  // the policy decided (dangerous: PK.policy-denied)
};
// `module` and `name` as normalise_global returns them; `policy` may be null.
Judgement judge_global(std::string_view module, std::string_view name, const Policy* policy = nullptr);

// Why the built-in lists or shapes deny `dotted` (an exact module.name), or, with `subtree`,
// every name under it (`dotted` is then a module path): what a policy may not allow.
std::optional<std::string> builtin_denial(std::string_view dotted, bool subtree);

}  // namespace tensorgate::detail::pickle
