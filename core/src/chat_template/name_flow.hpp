#pragma once
// The names of one template and what they may hold, for CT.computed-subscript: a subscript
// x[k] reaches getattr(x, k) when k is a string x has no item for (Jinja's
// Environment.getitem), so a key matters when the template may have built it. Bindings ({% set %},
// {% for %}, {% with %}, macro and call-block parameters, .append() and the like) record where a
// name's value comes from; subscript keys record the names they read. Both are known only at the
// end of the template (a name may be bound after the subscript that reads it, in a loop), where
// the bindings are followed to a fixed point:
//  - a name is `built` when a binding gives it a string built at render time, or the value of
//    a built name;
//  - a name is `stringy` when a binding gives it a string literal (or a stringy name's value).
// A key that only reads names (k, ns.idx, json_spec.type) is suspicious when one of them is
// built; a key that adds, repeats or formats them (idx + 1) when one may be a string at all.
// Names the template never binds are the caller's (messages, tools, loop): not the template's
// strings. Memory: at most Limits::chat_template.max_names names and four bindings per name;
// past either bound a name counts as built.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "chat_template/hit.hpp"
#include "chat_template/value.hpp"

namespace tensorgate::detail::ct {

class NameFlow {
 public:
  explicit NameFlow(std::uint32_t max_names) : max_names_(max_names) {}
  void reset();

  // The name's id (by its first kKeep bytes: a longer name may share one), kNoName past the bound.
  std::uint32_t id(std::string_view name);
  // The pseudo-name a call of `callee` (a macro, caller, loop, anything not a known global)
  // passes its arguments to, and the macro's parameters (varargs and kwargs too) read.
  std::uint32_t arguments_of(std::string_view callee);
  // The pseudo-name of every other call's arguments (a method, an item, a call's result): a
  // macro kept as a value ({% set f = m %}, {'f': m}) can be called that way, d.f(...).
  std::uint32_t any_call();
  // {% macro NAME(...) %}: its varargs and kwargs read its arguments.
  void define_macro(std::string_view name);
  // The name is read as a value, not called: a macro named so can be called any way.
  void escape(std::uint32_t id) {
    if (id != kNoName) names_[id].escaped = true;
  }

  // `target` may hold `v` (its elements, for a for loop's targets).
  void bind(std::uint32_t target, const Value& v);
  // `key` subscripts something at `at`: judged at the end.
  void use_as_key(const Value& key, std::uint64_t at);

  // The keys that read a name the template may build, first by offset, counted by name.
  Hit finish();

 private:
  struct Name {
    std::string text;
    bool built = false, stringy = false;
    bool macro = false, escaped = false;
    std::uint64_t plain_at = UINT64_MAX;  // first key that reads it as it is
    std::uint64_t arith_at = UINT64_MAX;  // first key that adds, repeats or formats it
  };
  struct Binding {
    std::uint32_t target, source;
    bool arith;
  };
  void taint(std::uint32_t target) { names_[target].built = names_[target].stringy = true; }
  bool propagate();

  std::uint32_t max_names_;
  std::map<std::string, std::uint32_t, std::less<>> ids_;  // ordered: no hash to collide
  std::vector<Name> names_;
  std::vector<Binding> bindings_;
  std::set<std::uint64_t> bound_;  // the bindings recorded, each once (a template may repeat one)
};

}  // namespace tensorgate::detail::ct
