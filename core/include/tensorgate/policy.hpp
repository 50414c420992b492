#pragma once
// A team's policy file (docs/policy.md): pickle globals, Keras modules and ONNX operator domains
// it allows past the built-in allow-lists, and ones it denies beyond the built-in deny-lists.
// Parsed once from the file's bytes (the face reads the file), immutable afterwards, and shared
// by every check through `Limits::policy`. An allow never reaches past a built-in denial: the
// parser refuses an allow the built-in deny-list or a hostile shape covers, and the judges
// consult the built-in denials first.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tensorgate/limits.hpp"

namespace tensorgate {

// Exact dotted names and `root.*` subtrees, matched by whole components: `sklearn.*` matches
// `sklearn` and `sklearn.linear_model._base.LinearRegression`, never `sklearnx`. Both lists are
// sorted: a lookup is a binary search per dotted prefix of the name (no regex, no hashing of
// the untrusted name), and each judge looks a distinct name up once.
class NamePatterns {
 public:
  NamePatterns() = default;
  explicit NamePatterns(std::vector<std::string> patterns);  // as the parser validated them

  // The pattern, as written, that matches `dotted` (an exact name before a subtree), or null.
  const std::string* match(std::string_view dotted) const;
  bool empty() const { return exact_.empty() && subtrees_.empty(); }
  std::size_t size() const { return exact_.size() + subtrees_.size(); }

 private:
  std::vector<std::string> exact_;
  std::vector<std::string> subtrees_;  // each `root.*` as written, ordered by its root
};

// What a report says of the policy in force (`policy` in the JSON report, docs/policy.md).
struct PolicyIdentity {
  std::string name;    // the file's name as the face was given it
  std::string sha256;  // lowercase hex of the file's bytes
};

struct Policy {
  PolicyIdentity identity;
  NamePatterns pickle_allow, pickle_deny;  // module.name of a pickle's globals
  NamePatterns keras_allow, keras_deny;    // modules of a Keras config's objects
  NamePatterns onnx_allow, onnx_deny;      // operator domains of an ONNX model's nodes
};

struct PolicyParse {
  std::shared_ptr<const Policy> policy;  // set when the text is a valid policy
  std::string error;                     // otherwise why not, naming the line or the key
};

// Parses a policy file's bytes; `name` is what the report will call it. Never throws.
PolicyParse parse_policy(std::string_view text, std::string name, const PolicyLimits& limits = {});

}  // namespace tensorgate
