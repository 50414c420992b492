// The lists are compiled into sorted tables once; a lookup is a binary search. A scanner judges
// each distinct global once and keeps the answer.
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
  std::vector<Entry> allow, deny_modules, deny_names;
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
#include "pickle/global_lists.def"
#undef PK_ALLOW
#undef PK_DENY_MODULE
#undef PK_DENY_NAME
    l.allow = sorted(std::move(l.allow));
    l.deny_modules = sorted(std::move(l.deny_modules));
    l.deny_names = sorted(std::move(l.deny_names));
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

}  // namespace

NormalisedGlobal normalise_global(std::string_view module, std::string_view name) {
  for (std::size_t i = 0; i < kNameRenames.size(); i += 4)
    if (kNameRenames[i] == module && kNameRenames[i + 1] == name)
      return {std::string(kNameRenames[i + 2]), std::string(kNameRenames[i + 3])};
  for (std::size_t i = 0; i < kModuleRenames.size(); i += 2)
    if (kModuleRenames[i] == module) return {std::string(kModuleRenames[i + 1]), std::string(name)};
  return {std::string(module), std::string(name)};
}

Judgement judge_global(std::string_view module, std::string_view name) {
  const std::string path = std::string(module) + "." + std::string(name);
  std::vector<std::string_view> parts;
  for (std::size_t at = 0;;) {
    const std::size_t dot = path.find('.', at);
    parts.push_back(std::string_view(path).substr(at, dot == std::string::npos ? std::string::npos : dot - at));
    if (dot == std::string::npos) break;
    at = dot + 1;
  }
  for (const std::string_view c : parts)
    if (dunder(c)) return {GlobalVerdict::dangerous, "a hostile shape: the component " + std::string(c)};
  if (const Entry* e = denied(path)) return {GlobalVerdict::dangerous, std::string(e->path) + ": " + std::string(e->reason)};
  // A walk through attributes: "numpy.core._internal.sys.modules" reaches sys from inside.
  std::size_t offset = parts[0].size() + 1;
  for (std::size_t i = 1; i + 1 < parts.size(); offset += parts[i].size() + 1, ++i) {
    if (const Entry* e = denied(std::string_view(path).substr(offset)))
      return {GlobalVerdict::dangerous, "a hostile shape: the dotted name walks through " + std::string(e->path) + " (" +
                                            std::string(e->reason) + ")"};
  }
  if (const Entry* e = find(lists().allow, path)) return {GlobalVerdict::allowed, std::string(e->reason)};
  return {GlobalVerdict::unknown, "on neither list"};
}

}  // namespace tensorgate::detail::pickle
