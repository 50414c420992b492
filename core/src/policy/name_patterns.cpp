// Matching a dotted name against a policy's patterns: an exact name by binary search, then each
// dotted prefix of the name (the name itself included) against the subtrees' roots. A name of
// k components costs k + 1 searches of a sorted vector; the judges ask once per distinct name.
#include <algorithm>

#include "tensorgate/policy.hpp"

namespace tensorgate {
namespace {

std::string_view root_of(const std::string& subtree) { return std::string_view(subtree).substr(0, subtree.size() - 2); }

struct ByRoot {
  bool operator()(const std::string& a, const std::string& b) const { return root_of(a) < root_of(b); }
  bool operator()(const std::string& a, std::string_view b) const { return root_of(a) < b; }
};

}  // namespace

NamePatterns::NamePatterns(std::vector<std::string> patterns) {
  for (std::string& p : patterns) (p.ends_with(".*") ? subtrees_ : exact_).push_back(std::move(p));
  std::sort(exact_.begin(), exact_.end());
  std::sort(subtrees_.begin(), subtrees_.end(), ByRoot{});
}

const std::string* NamePatterns::match(std::string_view dotted) const {
  if (const auto it = std::lower_bound(exact_.begin(), exact_.end(), dotted,
                                       [](const std::string& a, std::string_view b) { return a < b; });
      it != exact_.end() && *it == dotted)
    return &*it;
  if (subtrees_.empty()) return nullptr;
  // `a.b.*` matches `a.b` and what lies under it: the prefixes that end at a dot, and the name.
  for (std::size_t end = dotted.find('.');; end = dotted.find('.', end + 1)) {
    const std::string_view prefix = dotted.substr(0, end);
    const auto it = std::lower_bound(subtrees_.begin(), subtrees_.end(), prefix, ByRoot{});
    if (it != subtrees_.end() && root_of(*it) == prefix) return &*it;
    if (end == std::string_view::npos) return nullptr;
  }
}

}  // namespace tensorgate
