// The lists are compiled into sorted tables once; a lookup is a binary search (the leaf
// prefixes and suffixes, a few dozen, are scanned). A scanner judges each distinct global once
// and keeps the answer.
#include "pickle/global_judge.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <vector>

#include "common/string_pool.hpp"

namespace tensorgate::detail::pickle {
namespace {

struct Entry {
  std::string_view path;
  std::string_view reason;
  friend bool operator<(const Entry& a, const Entry& b) { return a.path < b.path; }
};

struct Lists {
  std::vector<Entry> allow, deny_modules, deny_names, leaves, leaf_prefixes, leaf_suffixes, aliases;
};

std::vector<Entry> sorted(std::vector<Entry> v) {
  std::sort(v.begin(), v.end());
  return v;
}

const Lists& lists() {
  static const Lists kLists = [] {
    Lists l;
#define PK_ALLOW(path, reason) l.allow.push_back({path, reason});
#define PK_DENY_MODULE(path, reason) l.deny_modules.push_back({path, reason});
#define PK_DENY_NAME(path, reason) l.deny_names.push_back({path, reason});
#define PK_DENY_LEAF(name, reason) l.leaves.push_back({name, reason});
#define PK_DENY_LEAF_PREFIX(prefix, reason) l.leaf_prefixes.push_back({prefix, reason});
#define PK_DENY_LEAF_SUFFIX(suffix, reason) l.leaf_suffixes.push_back({suffix, reason});
#define PK_DENY_ALIAS(component, reason) l.aliases.push_back({component, reason});
#include "pickle/global_lists.def"
#include "pickle/global_deny_stdlib.def"
#include "pickle/global_deny_ml.def"
#include "pickle/global_shapes.def"
#undef PK_ALLOW
#undef PK_DENY_MODULE
#undef PK_DENY_NAME
#undef PK_DENY_LEAF
#undef PK_DENY_LEAF_PREFIX
#undef PK_DENY_LEAF_SUFFIX
#undef PK_DENY_ALIAS
    for (auto* v : {&l.allow, &l.deny_modules, &l.deny_names, &l.leaves, &l.aliases}) *v = sorted(std::move(*v));
    return l;
  }();
  return kLists;
}

// The renames Python 3's unpickler applies to Python 2 names (compat_names.def): for a name, its
// old module, old name, new module and new name; for a module, its old and new module. Pools, not
// tables of string_views, which would be relocations written at every start (string_pool.hpp).
constexpr auto kNameRenames = make_string_pool([] {
  return std::to_array<std::string_view>({
#define PK_RENAME_NAME(om, on, nm, nn) om, on, nm, nn,
#define PK_RENAME_MODULE(om, nm)
#include "pickle/compat_names.def"
#undef PK_RENAME_NAME
#undef PK_RENAME_MODULE
  });
});
constexpr auto kModuleRenames = make_string_pool([] {
  return std::to_array<std::string_view>({
#define PK_RENAME_NAME(om, on, nm, nn)
#define PK_RENAME_MODULE(om, nm) om, nm,
#include "pickle/compat_names.def"
#undef PK_RENAME_NAME
#undef PK_RENAME_MODULE
  });
});

const Entry* find(const std::vector<Entry>& list, std::string_view path) {
  const auto it = std::lower_bound(list.begin(), list.end(), Entry{path, {}});
  return it != list.end() && it->path == path ? &*it : nullptr;
}

// The entry of `list` that is `path` itself or a dotted prefix of it ("os" for "os.path.join").
const Entry* find_prefix(const std::vector<Entry>& list, std::string_view path) {
  for (std::size_t dot = path.find('.'); ; dot = path.find('.', dot + 1)) {
    if (const Entry* e = find(list, path.substr(0, dot))) return e;
    if (dot == std::string_view::npos) return nullptr;
  }
}

bool dunder(std::string_view c) { return c.size() > 4 && c.starts_with("__") && c.ends_with("__"); }

// The denied module or name `path` reaches, if any.
const Entry* denied(std::string_view path) {
  if (const Entry* e = find_prefix(lists().deny_modules, path)) return e;
  return find_prefix(lists().deny_names, path);
}

// The leaf rule the last component matches, its leading underscores stripped (a private
// `_load` is a load).
const Entry* denied_leaf(std::string_view leaf) {
  while (leaf.starts_with('_')) leaf.remove_prefix(1);
  if (leaf.empty()) return nullptr;
  if (const Entry* e = find(lists().leaves, leaf)) return e;
  for (const Entry& e : lists().leaf_prefixes)
    if (leaf.starts_with(e.path)) return &e;
  for (const Entry& e : lists().leaf_suffixes)
    if (leaf.ends_with(e.path)) return &e;
  return nullptr;
}

std::vector<std::string_view> components(std::string_view path) {
  std::vector<std::string_view> parts;
  for (std::size_t at = 0;;) {
    const std::size_t dot = path.find('.', at);
    parts.push_back(path.substr(at, dot == std::string_view::npos ? std::string_view::npos : dot - at));
    if (dot == std::string_view::npos) return parts;
    at = dot + 1;
  }
}

Judgement dangerous(std::string reason) { return {GlobalVerdict::dangerous, std::move(reason)}; }

// The hostile shapes: a module's alias of a denied module as any component after the first,
// and a name with a dot. The unpickler imports the module part (a module file, or the import
// fails) and resolves the name part with getattr, per component since protocol 4: a dotted name
// walks through the attributes of whatever the module holds ("numpy.core._internal" then
// "sys.modules" reaches sys from inside). The message names the denied module or name the walk
// passes through, when it does.
std::optional<Judgement> hostile_shape(std::string_view path, std::string_view name,
                                       const std::vector<std::string_view>& parts) {
  const bool dotted = name.find('.') != std::string_view::npos;
  for (std::size_t at = path.size() - name.size(); dotted;) {
    if (const Entry* e = denied(path.substr(at)))
      return dangerous("a hostile shape: the dotted name walks through " + std::string(e->path) + " (" +
                       std::string(e->reason) + ")");
    const std::size_t dot = path.find('.', at);
    if (dot == std::string_view::npos) break;
    at = dot + 1;
  }
  for (std::size_t i = 1; i < parts.size(); ++i)
    if (const Entry* e = find(lists().aliases, parts[i]))
      return dangerous("a hostile shape: the component " + std::string(parts[i]) + " is " + std::string(e->reason));
  if (!dotted) return std::nullopt;
  return dangerous("a hostile shape: the name " + std::string(name) +
                   " has a dot, an attribute walk (since protocol 4 the unpickler resolves it with getattr per"
                   " component); no allowed global has one");
}

}  // namespace

NormalisedGlobal normalise_global(std::string_view module, std::string_view name) {
  for (std::size_t i = 0; i < kNameRenames.size(); i += 4)
    if (kNameRenames[i] == module && kNameRenames[i + 1] == name)
      return {std::string(kNameRenames[i + 2]), std::string(kNameRenames[i + 3])};
  for (std::size_t i = 0; i < kModuleRenames.size(); i += 2)
    if (kModuleRenames[i] == module) return {std::string(kModuleRenames[i + 1]), std::string(name)};
  return {std::string(module), std::string(name)};
}

// Denials first (an allowed path never matches one: a test holds it), the policy's denials, then
// the allow-list, then the shapes no allowed global has, and only then the policy's allowances.
Judgement judge_global(std::string_view module, std::string_view name, const Policy* policy) {
  const std::string path = std::string(module) + "." + std::string(name);
  const std::vector<std::string_view> parts = components(path);
  for (const std::string_view c : parts)
    if (dunder(c)) return dangerous("a hostile shape: the component " + std::string(c));
  if (const Entry* e = denied(path)) return dangerous(std::string(e->path) + ": " + std::string(e->reason));
  if (const Entry* e = denied_leaf(parts.back()))
    return dangerous("the name " + std::string(parts.back()) + ", denied wherever it lives: " + std::string(e->reason));
  if (const std::string* p = policy ? policy->pickle_deny.match(path) : nullptr)
    return {GlobalVerdict::dangerous, "denied by the policy (" + *p + ")", true};
  if (const Entry* e = find(lists().allow, path)) {
    if (name.find('.') == std::string_view::npos) return {GlobalVerdict::allowed, std::string(e->reason)};
  }
  if (auto shape = hostile_shape(path, name, parts)) return std::move(*shape);
  if (const std::string* p = policy ? policy->pickle_allow.match(path) : nullptr)
    return {GlobalVerdict::allowed, "allowed by the policy (" + *p + ")", true};
  return {GlobalVerdict::unknown, "on neither list"};
}

std::optional<std::string> builtin_denial(std::string_view dotted, bool subtree) {
  if (!subtree) {
    const std::size_t dot = dotted.rfind('.');
    if (dot == std::string_view::npos) return std::nullopt;
    const NormalisedGlobal n = normalise_global(dotted.substr(0, dot), dotted.substr(dot + 1));
    Judgement j = judge_global(n.module, n.name);
    if (j.verdict == GlobalVerdict::dangerous) return std::move(j.reason);
    return std::nullopt;
  }
  // A subtree: every name under it is denied when its root or a module above it is, or when a
  // component is a hostile shape. A subtree that merely holds denied names (numpy.* holds
  // numpy.load) is judged name by name, the built-in denials first.
  const std::string root = normalise_global(dotted, "_").module;  // a module's _compat_pickle rename
  const std::vector<std::string_view> parts = components(root);
  for (const std::string_view c : parts)
    if (dunder(c)) return "a hostile shape: the component " + std::string(c);
  if (const Entry* e = denied(root)) return std::string(e->path) + ": " + std::string(e->reason);
  for (std::size_t i = 1; i < parts.size(); ++i)
    if (const Entry* e = find(lists().aliases, parts[i]))
      return "a hostile shape: the component " + std::string(parts[i]) + " is " + std::string(e->reason);
  return std::nullopt;
}

}  // namespace tensorgate::detail::pickle
