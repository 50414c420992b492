#pragma once
// What a string literal's decoded value says about the attributes it can name, seen one character
// at a time (a token keeps only its first kKeep bytes; these look at the whole value in O(1)):
//  - format_access: a str.format replacement field whose field name goes on past its argument
//    with "." or "[" ({0.x}, {0[x]}, {name.attr}, nested fields in a format spec too): Python's
//    str.format reads that attribute or item of its argument (string.Formatter.get_field);
//    "{{" is a brace, "{}", "{0}", "{name}", "{0:>8}" and "{0!r}" read nothing;
//  - internal_name: a part of the value between "." and "," (make_attrgetter splits attribute
//    paths on ".", sort's on "," too) or the whole value is one of kInternalNames.
#include <cstdint>

#include "chat_template/internal_names.hpp"

namespace tensorgate::detail::ct {

class StringFacts {
 public:
  void reset() { *this = StringFacts{}; }

  void add(char32_t c) {
    format_step(c);
    if (c == '.' || c == ',') return end_part();
    if (part_len_ < kInternalNameMax && c < 0x80) part_[part_len_++] = static_cast<char>(c);
    else part_long_ = true;
  }
  void finish() { end_part(); }

  bool format_access() const { return format_access_; }
  bool internal_name() const { return internal_; }

 private:
  enum class Fmt : std::uint8_t { text, brace, field };

  void format_step(char32_t c) {
    switch (fmt_) {
      case Fmt::text:
        if (c == '{') fmt_ = Fmt::brace;
        return;
      case Fmt::brace:  // "{{" is a literal brace; anything else begins a field
        if (c == '{') {
          fmt_ = Fmt::text;
          return;
        }
        fmt_ = Fmt::field;
        [[fallthrough]];
      case Fmt::field:
        if (c == '.' || c == '[') format_access_ = true;
        if (c == '.' || c == '[' || c == '!' || c == ':' || c == '}') fmt_ = Fmt::text;
        else if (c == '{') fmt_ = Fmt::brace;
        return;
    }
  }

  void end_part() {
    if (!part_long_ && is_internal_name(std::string_view(part_, part_len_))) internal_ = true;
    part_len_ = 0;
    part_long_ = false;
  }

  Fmt fmt_ = Fmt::text;
  bool format_access_ = false, internal_ = false;
  char part_[kInternalNameMax] = {};
  std::uint8_t part_len_ = 0;
  bool part_long_ = false;
};

}  // namespace tensorgate::detail::ct
