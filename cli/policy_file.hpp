#pragma once
// --policy FILE (docs/policy.md): the face reads the file, the core parses it. A policy that
// cannot be read or parsed is a usage error (exit status 2), never a check without it.
#include <memory>
#include <string>

#include "tensorgate/policy.hpp"

namespace tensorgate::cli {

// The policy of `path`; throws UsageError naming the file and what is wrong (a line and
// column, or the key).
std::shared_ptr<const Policy> load_policy_file(const std::string& path, const PolicyLimits& limits);

}  // namespace tensorgate::cli
