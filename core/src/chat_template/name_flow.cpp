#include "chat_template/name_flow.hpp"

#include "chat_template/token.hpp"
#include "common/printable.hpp"

namespace tensorgate::detail::ct {
namespace {

constexpr std::size_t kBindingsPerName = 4;
// Pseudo-names are not Jinja identifiers: no template can name them.
constexpr std::string_view kArgumentsOf = "(arguments of ";

}  // namespace

void NameFlow::reset() {
  ids_.clear();
  names_.clear();
  bindings_.clear();
  bound_.clear();
}

std::uint32_t NameFlow::id(std::string_view name) {
  name = name.substr(0, kKeep);
  if (const auto it = ids_.find(name); it != ids_.end()) return it->second;
  if (names_.size() >= max_names_) return kNoName;
  const auto id = static_cast<std::uint32_t>(names_.size());
  names_.push_back(Name{std::string(name)});
  ids_.emplace(std::string(name), id);
  return id;
}

std::uint32_t NameFlow::arguments_of(std::string_view callee) {
  // Kept by its first bytes as names are: two long callees may share one.
  return id(std::string(kArgumentsOf) + std::string(callee.substr(0, kKeep - kArgumentsOf.size() - 1)) + ")");
}

std::uint32_t NameFlow::any_call() { return id("(arguments of any call)"); }

void NameFlow::define_macro(std::string_view name) {
  const std::uint32_t macro = id(name);
  if (macro != kNoName) names_[macro].macro = true;
  Value arguments;
  arguments.ref(arguments_of(name));
  bind(id("varargs"), arguments);
  bind(id("kwargs"), arguments);
}

void NameFlow::bind(std::uint32_t target, const Value& v) {
  if (target == kNoName) return;  // never read either: a read of it is an untracked name
  if (v.may_build()) return taint(target);
  if (v.literal) names_[target].stringy = true;
  for (std::uint8_t i = 0; i < v.count; ++i) {
    if (v.refs[i] == target && !v.arith) continue;
    const std::uint64_t key = (std::uint64_t{target} << 33) | (std::uint64_t{v.refs[i]} << 1) | (v.arith ? 1 : 0);
    if (bound_.count(key)) continue;
    if (bindings_.size() >= kBindingsPerName * static_cast<std::size_t>(max_names_)) return taint(target);
    bound_.insert(key);
    bindings_.push_back(Binding{target, v.refs[i], v.arith});
  }
}

void NameFlow::use_as_key(const Value& key, std::uint64_t at) {
  for (std::uint8_t i = 0; i < key.count; ++i) {
    Name& n = names_[key.refs[i]];
    std::uint64_t& first = key.arith ? n.arith_at : n.plain_at;
    if (at < first) first = at;
  }
}

// One pass over the bindings; whether any name changed.
bool NameFlow::propagate() {
  bool changed = false;
  for (const Binding& b : bindings_) {
    const Name& s = names_[b.source];
    Name& t = names_[b.target];
    const bool built = t.built || s.built || (b.arith && s.stringy);
    const bool stringy = t.stringy || s.stringy || built;
    changed = changed || built != t.built || stringy != t.stringy;
    t.built = built;
    t.stringy = stringy;
  }
  return changed;
}

Hit NameFlow::finish() {
  // A macro kept as a value may be called through any call.
  for (std::size_t i = 0, n = names_.size(); i < n; ++i) {
    if (!names_[i].macro || !names_[i].escaped) continue;
    Value any;
    any.ref(any_call());
    bind(arguments_of(names_[i].text), any);
  }
  // Each pass that changes anything sets one of two flags of some name: at most 2n + 1 passes.
  for (std::size_t pass = 0; pass <= 2 * names_.size() && propagate(); ++pass) {
  }
  Hit out;
  for (const Name& n : names_) {
    std::uint64_t at = n.built ? n.plain_at : UINT64_MAX;
    if ((n.built || n.stringy) && n.arith_at < at) at = n.arith_at;
    if (at == UINT64_MAX) continue;
    Hit h;
    h.add(at, [&] {
      return "subscripts with a key read from " + quoted(n.text) +
             (n.built ? ", which the template binds to a string it builds at render time"
                      : " put together by +, * or %, which the template binds to a string");
    });
    out.merge(h);
  }
  return out;
}

}  // namespace tensorgate::detail::ct
