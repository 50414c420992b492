// Reading a policy file (docs/policy.md) into a Policy: one JSON object read whole through the
// common reader (bounded bytes and depth, duplicate keys refused), every key known, every
// pattern checked, and every allowance held against the built-in deny-list and hostile shapes
// of the pickle judge. A policy that allows what they deny is refused outright rather than
// half applied: the team learns at once that its entry can never take effect.
#include <algorithm>
#include <array>
#include <optional>
#include <set>

#include "common/json_doc.hpp"
#include "common/printable.hpp"
#include "pickle/global_judge.hpp"
#include "tensorgate/policy.hpp"
#include "tensorgate/sha256.hpp"

namespace tensorgate {
namespace {

namespace json = boost::json;
using detail::printable;
using detail::quoted;

enum class Names {
  global,  // a pickle's module.name: Python identifiers, at least two components
  module,  // a Keras object's module: Python identifiers
  domain,  // an ONNX operator domain: letters, digits, '_' and '-' between the dots
};

struct Section {
  std::string_view key;
  std::string_view allow_key, deny_key;
  Names names;
  NamePatterns Policy::*allow;
  NamePatterns Policy::*deny;
};

constexpr std::array<Section, 3> kSections{{
    {"pickle", "allow", "deny", Names::global, &Policy::pickle_allow, &Policy::pickle_deny},
    {"keras", "allow_modules", "deny_modules", Names::module, &Policy::keras_allow, &Policy::keras_deny},
    {"onnx", "allow_domains", "deny_domains", Names::domain, &Policy::onnx_allow, &Policy::onnx_deny},
}};

bool identifier(std::string_view c) {
  if (c.empty() || (c[0] >= '0' && c[0] <= '9')) return false;
  return std::all_of(c.begin(), c.end(), [](char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
  });
}

bool domain_component(std::string_view c) {
  return !c.empty() && std::all_of(c.begin(), c.end(), [](char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '-';
  });
}

// What is wrong with a pattern's spelling, or nothing.
std::optional<std::string> spelling_error(std::string_view p, Names names, const PolicyLimits& limits) {
  if (p.size() > limits.max_pattern_bytes)
    return "is longer than " + std::to_string(limits.max_pattern_bytes) + " bytes (PolicyLimits::max_pattern_bytes)";
  const bool subtree = p.ends_with(".*");
  const std::string_view body = subtree ? p.substr(0, p.size() - 2) : p;
  if (body.empty() || body == "*")
    return std::string("names nothing: write an exact name, or a module and .* for its subtree (sklearn.*)");
  std::size_t dots = 0;
  for (std::size_t at = 0;; ++dots) {
    const std::size_t dot = body.find('.', at);
    const std::string_view c = body.substr(at, dot == std::string_view::npos ? std::string_view::npos : dot - at);
    if (c.find('*') != std::string_view::npos) return std::string("has a * that is not its whole last component (.*)");
    if (names == Names::domain ? !domain_component(c) : !identifier(c))
      return "has the component " + quoted(c, 60) +
             (names == Names::domain ? ", not letters, digits, _ or -" : ", not a Python identifier");
    if (dot == std::string_view::npos) break;
    at = dot + 1;
  }
  if (names == Names::global && !subtree && dots == 0)
    return std::string("names a module, not a global: write module.name, or module.* for the module's subtree");
  return std::nullopt;
}

// Why the built-in deny-list or a hostile shape already refuses what an allowance names.
std::optional<std::string> built_in_denial(std::string_view p, Names names) {
  const bool subtree = p.ends_with(".*");
  const std::string_view body = subtree ? p.substr(0, p.size() - 2) : p;
  if (names == Names::global) return detail::pickle::builtin_denial(body, subtree);
  if (names == Names::module) return detail::pickle::builtin_denial(body, true);  // Keras imports the module
  return std::nullopt;
}

std::string line_column(std::string_view text, std::uint64_t byte) {
  const std::string_view before = text.substr(0, std::min<std::uint64_t>(byte, text.size()));
  const std::size_t line = static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n')) + 1;
  const std::size_t last = before.rfind('\n');
  const std::size_t column = before.size() - (last == std::string_view::npos ? 0 : last + 1) + 1;
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

class Reader {
 public:
  explicit Reader(const PolicyLimits& limits) : limits_(limits) {}

  // The patterns of `section.key` (absent: none); false with error() set when they are wrong.
  bool list(const json::object& section, const Section& s, bool allow, std::vector<std::string>& out) {
    const std::string_view key = allow ? s.allow_key : s.deny_key;
    const std::string where = std::string(s.key) + "." + std::string(key);
    const json::value* v = section.if_contains(key);
    if (!v) return true;
    if (!v->is_array()) return fail(where + " must be an array of strings");
    std::set<std::string_view> seen;
    for (std::size_t i = 0; i < v->as_array().size(); ++i) {
      const json::value& item = v->as_array()[i];
      const std::string at = where + "[" + std::to_string(i) + "]";
      if (!item.is_string()) return fail(at + " must be a string");
      const std::string_view p = item.as_string();
      if (++entries_ > limits_.max_entries)
        return fail("more than " + std::to_string(limits_.max_entries) + " patterns (PolicyLimits::max_entries)");
      if (const auto why = spelling_error(p, s.names, limits_)) return fail(at + " " + quoted(p, 80) + " " + *why);
      if (!seen.insert(p).second) return fail(at + " " + quoted(p, 80) + " is listed twice");
      if (allow)
        if (const auto why = built_in_denial(p, s.names))
          return fail(at + " " + quoted(p, 80) + " is denied by the built-in deny-list or a hostile shape (" +
                      printable(*why) + "): a policy cannot allow it");
      out.emplace_back(p);
    }
    return true;
  }

  bool section(const json::object& top, const Section& s, Policy& policy) {
    const json::value* v = top.if_contains(s.key);
    if (!v) return true;
    if (!v->is_object()) return fail(std::string(s.key) + " must be an object");
    for (const auto& kv : v->as_object())
      if (kv.key() != s.allow_key && kv.key() != s.deny_key)
        return fail(std::string(s.key) + ": unknown key " + quoted(kv.key(), 60) + " (the keys are " +
                    std::string(s.allow_key) + " and " + std::string(s.deny_key) + ")");
    std::vector<std::string> allow, deny;
    if (!list(v->as_object(), s, true, allow) || !list(v->as_object(), s, false, deny)) return false;
    for (const std::string& p : allow)
      if (std::find(deny.begin(), deny.end(), p) != deny.end())
        return fail(std::string(s.key) + ": " + quoted(p, 80) + " is both allowed and denied");
    policy.*s.allow = NamePatterns(std::move(allow));
    policy.*s.deny = NamePatterns(std::move(deny));
    return true;
  }

  bool fail(std::string why) {
    error_ = std::move(why);
    return false;
  }
  std::string& error() { return error_; }

 private:
  const PolicyLimits& limits_;
  std::uint64_t entries_ = 0;
  std::string error_;
};

bool known_top_key(std::string_view k) {
  if (k == "version" || k == "comment") return true;
  return std::any_of(kSections.begin(), kSections.end(), [&](const Section& s) { return s.key == k; });
}

}  // namespace

PolicyParse parse_policy(std::string_view text, std::string name, const PolicyLimits& limits) {
  PolicyParse out;
  DirectoryLimits json_limits;
  json_limits.max_json_bytes = limits.max_bytes;
  json_limits.max_json_depth = limits.max_depth;
  detail::JsonDoc doc = detail::parse_json_object(text, json_limits);
  if (!doc.object) {
    // The common reader says where as a byte; a person editing the file wants the line.
    const std::size_t why = doc.error.find(": ");
    out.error = doc.error_byte && why != std::string::npos
                    ? line_column(text, *doc.error_byte) + ": not valid JSON: " + doc.error.substr(why + 2)
                    : doc.error;
    if (!doc.error_byte && doc.error.empty()) out.error = "not a JSON object";
    return out;
  }
  const json::object& top = *doc.object;
  for (const auto& kv : top)
    if (!known_top_key(kv.key())) {
      out.error = "unknown key " + quoted(kv.key(), 60) + " (the keys are version, comment, pickle, keras and onnx)";
      return out;
    }
  const json::value* version = top.if_contains("version");
  if (!version) {
    out.error = "no version: a policy starts with \"version\": 1";
    return out;
  }
  if (!(version->is_int64() && version->as_int64() == 1) && !(version->is_uint64() && version->as_uint64() == 1)) {
    out.error = "version must be 1, the only version of the format";
    return out;
  }
  if (const json::value* c = top.if_contains("comment"); c && !c->is_string()) {
    out.error = "comment must be a string";
    return out;
  }
  auto policy = std::make_shared<Policy>();
  Reader reader(limits);
  for (const Section& s : kSections)
    if (!reader.section(top, s, *policy)) {
      out.error = std::move(reader.error());
      return out;
    }
  policy->identity = PolicyIdentity{std::move(name), Sha256::hex_of(text.data(), text.size())};
  out.policy = std::move(policy);
  return out;
}

}  // namespace tensorgate
