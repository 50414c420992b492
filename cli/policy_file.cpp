#include "policy_file.hpp"

#include "command_line.hpp"
#include "file_source.hpp"

namespace tensorgate::cli {

std::shared_ptr<const Policy> load_policy_file(const std::string& path, const PolicyLimits& limits) {
  // One byte past the bound, so that the parser refuses an oversized file with its size.
  const std::optional<std::string> text = read_small_file(path, limits.max_bytes);
  if (!text) throw UsageError("--policy " + path + ": cannot be read");
  PolicyParse parsed = parse_policy(*text, path, limits);
  if (!parsed.policy) throw UsageError("--policy " + path + ": " + parsed.error);
  return std::move(parsed.policy);
}

}  // namespace tensorgate::cli
