#pragma once
// What the subscript check knows of an expression's value (flow.hpp): whether it may be a
// string the template builds at render time, whether a string literal is part of it, and the
// names it comes from, whose own values are only known at the end of the template.
#include <array>
#include <cstdint>

namespace tensorgate::detail::ct {

inline constexpr std::uint32_t kNoName = 0xFFFFFFFF;  // a name past the table's bound

struct Value {
  static constexpr std::size_t kRefs = 16;

  bool built = false;    // a string built at render time (~, |replace, |format, .join(), a macro's output...)
  bool literal = false;  // a string literal is part of it
  bool arith = false;    // +, * or % combine its parts: with a string among them, a new string
  std::uint8_t count = 0;
  std::array<std::uint32_t, kRefs> refs{};  // names its value comes from

  // Built, or put together by + * % from a string literal: '_' * 2, 'a' + b.
  bool may_build() const { return built || (arith && literal); }
  bool empty() const { return !built && !literal && count == 0; }

  // A name it comes from; an untracked name, or one past kRefs, may be anything.
  void ref(std::uint32_t id) {
    for (std::uint8_t i = 0; i < count; ++i)
      if (refs[i] == id) return;
    if (id == kNoName || count == kRefs) built = true;
    else refs[count++] = id;
  }
  void merge(const Value& o) {
    built = built || o.built;
    literal = literal || o.literal;
    arith = arith || o.arith;
    for (std::uint8_t i = 0; i < o.count; ++i) ref(o.refs[i]);
  }
};

}  // namespace tensorgate::detail::ct
