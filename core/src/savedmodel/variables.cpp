// TF.variables: a SavedModel directory's variables/ folder against its index. The index names
// the shard count N; the shards present must be exactly variables.data-00000-of-N up to
// N - 1, and each variable must lie within its shard.
#include <boost/unordered/unordered_flat_map.hpp>
#include <optional>

#include "common/printable.hpp"
#include "savedmodel/bundle_index.hpp"
#include "tensorgate/rules.hpp"
#include "tensorgate/savedmodel.hpp"

namespace tensorgate {
namespace {

using detail::savedmodel::BundleEntry;
using detail::savedmodel::BundleIndex;
using detail::quoted;

// At least five digits, as TensorFlow writes shard numbers.
std::string padded(std::uint64_t v) {
  std::string s = std::to_string(v);
  return s.size() < 5 ? std::string(5 - s.size(), '0') + s : s;
}

std::string shard_name(std::uint64_t i, std::uint64_t n) { return "variables.data-" + padded(i) + "-of-" + padded(n); }

// The shard number and count of "variables.data-NNNNN-of-MMMMM", when the name is one.
struct ShardNumbers {
  std::uint64_t index, count;
};
std::optional<ShardNumbers> parse_shard_name(std::string_view name) {
  constexpr std::string_view kPrefix = "variables.data-", kOf = "-of-";
  if (!name.starts_with(kPrefix)) return std::nullopt;
  name.remove_prefix(kPrefix.size());
  const std::size_t of = name.find(kOf);
  if (of == std::string_view::npos) return std::nullopt;
  const auto number = [](std::string_view digits) -> std::optional<std::uint64_t> {
    if (digits.empty() || digits.size() > 18) return std::nullopt;
    std::uint64_t v = 0;
    for (const char c : digits) {
      if (c < '0' || c > '9') return std::nullopt;
      v = v * 10 + static_cast<std::uint64_t>(c - '0');
    }
    return v;
  };
  const auto i = number(name.substr(0, of)), n = number(name.substr(of + kOf.size()));
  if (!i || !n) return std::nullopt;
  return ShardNumbers{*i, *n};
}

// How far a shard is read, and by which variable.
struct Reach {
  std::uint64_t end = 0;
  std::string variable;
};

class VariableFindings {
 public:
  VariableFindings(std::vector<Finding>& out, const Limits& limits) : out_(out), limits_(limits) {}
  void add(std::string message) {
    if (out_.size() < limits_.max_findings)
      out_.push_back(Finding{Rule::tf_variables, rule_info(Rule::tf_variables).severity, "variables/: " + std::move(message), {}, {}});
  }

 private:
  std::vector<Finding>& out_;
  const Limits& limits_;
};

// Each shard present against the index's names; what is missing is counted and the first named
// (a count of 2^31 shards is not listed one by one).
void check_shards(const SavedModelVariables& vars, const BundleIndex& index,
                  const boost::unordered_flat_map<std::uint32_t, Reach>& reach, VariableFindings& f) {
  std::uint64_t matched = 0;
  boost::unordered_flat_map<std::string, std::uint64_t> named;  // the index's names present, by size
  for (const SavedModelVariables::Shard& s : vars.shards) {
    const std::optional<ShardNumbers> numbers = parse_shard_name(s.name);
    const std::uint64_t i = numbers ? numbers->index : 0;
    if (!numbers || numbers->count != index.num_shards || i >= numbers->count || s.name != shard_name(i, numbers->count)) {
      f.add(s.name + " is no shard of this index (it names " + std::to_string(index.num_shards) + ")");
      continue;
    }
    ++matched;
    named.emplace(s.name, s.size);
    if (const auto r = reach.find(static_cast<std::uint32_t>(i)); r != reach.end() && r->second.end > s.size)
      f.add(s.name + " has " + std::to_string(s.size) + " bytes; variable " + quoted(r->second.variable) +
            " is read up to byte " + std::to_string(r->second.end));
  }
  if (matched < index.num_shards) {
    std::uint64_t first = 0;
    while (named.contains(shard_name(first, index.num_shards))) ++first;
    f.add("the index names " + std::to_string(index.num_shards) + (index.num_shards == 1 ? " shard; " : " shards; ") +
          std::to_string(index.num_shards - matched) + " missing, the first " + shard_name(first, index.num_shards));
  }
}

}  // namespace

std::uint64_t savedmodel_graph_variables(const SavedModelSummary& summary) {
  std::uint64_t n = 0;
  for (const SavedModelOpCount& op : summary.ops)
    if (op.op == "VarHandleOp" || op.op == "VariableV2" || op.op == "Variable") n += op.count;
  return n;
}

SavedModelDirectorySummary check_savedmodel_variables(const SavedModelVariables& vars, const Limits& limits,
                                                      std::vector<Finding>& out) {
  SavedModelDirectorySummary summary;
  summary.assets = vars.assets;
  VariableFindings f(out, limits);
  if (vars.index_too_large) {
    f.add("variables.index is larger than this checker reads (" + std::to_string(limits.savedmodel.max_index_bytes) +
          " bytes)");
    return summary;
  }
  if (!vars.index) {
    if (!vars.shards.empty()) f.add("data shards without variables.index: TensorFlow cannot find a variable in them");
    else if (vars.graph_variables)
      f.add("the graph creates " + std::to_string(vars.graph_variables) + (vars.graph_variables == 1 ? " variable" : " variables") +
            " and there is no variables.index to restore " + (vars.graph_variables == 1 ? "it" : "them") + " from");
    return summary;
  }
  // The farthest byte each shard is read to; entries are bounded by the index's bytes.
  boost::unordered_flat_map<std::uint32_t, Reach> reach;
  std::uint64_t strays = 0;
  std::string first_stray;
  const BundleIndex index = detail::savedmodel::read_bundle_index(*vars.index, limits.savedmodel.max_index_bytes, [&](const BundleEntry& e) {
    summary.variable_bytes += e.size;
    if (e.shard >= e.num_shards) {
      if (strays++ == 0) first_stray = std::string(e.name);
      return;
    }
    const std::uint64_t end = e.offset + e.size < e.offset ? UINT64_MAX : e.offset + e.size;
    Reach& r = reach[e.shard];
    if (end > r.end) r = Reach{end, std::string(e.name.substr(0, 256))};
  });
  if (index.error) {
    f.add("variables.index is not a tensor bundle index: " + *index.error);
    return summary;
  }
  summary.variables = index.entries;
  summary.shards = index.num_shards;
  if (strays)
    f.add(std::to_string(strays) + (strays == 1 ? " variable is" : " variables are") + " in a shard past the index's " +
          std::to_string(index.num_shards) + ", the first " + quoted(first_stray));
  check_shards(vars, index, reach, f);
  return summary;
}

}  // namespace tensorgate
