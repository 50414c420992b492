// A tokenizer for the few Python literals a .npy header holds, and the dict's three keys.
#include "npy/npy_header.hpp"

#include <cctype>

namespace tensorgate::detail::npy {
namespace {

constexpr unsigned kMaxDepth = 32;  // structured dtypes nest; real ones two or three deep

}  // namespace

bool names_object(std::string_view d);

namespace {

class Lexer {
 public:
  explicit Lexer(std::string_view s) : s_(s) {}
  void space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
  }
  bool eat(char c) {
    space();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  bool peek(char c) {
    space();
    return i_ < s_.size() && s_[i_] == c;
  }
  std::optional<std::string> string() {
    space();
    if (i_ >= s_.size() || (s_[i_] != '\'' && s_[i_] != '"')) return std::nullopt;
    const char q = s_[i_++];
    std::string out;
    while (i_ < s_.size() && s_[i_] != q) {
      if (s_[i_] == '\\') return std::nullopt;  // numpy never writes escapes in a header
      out += s_[i_++];
    }
    if (i_ >= s_.size()) return std::nullopt;
    ++i_;
    return out;
  }
  std::optional<std::string_view> word() {
    space();
    const std::size_t start = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_')) ++i_;
    if (i_ == start) return std::nullopt;
    return s_.substr(start, i_ - start);
  }
  // Reads a descr that is not a plain string, as numpy.lib.format.descr_to_dtype reads it,
  // without recursion: a string is a dtype, a tuple (dtype, shape) a subarray, a list of
  // (name, dtype[, shape]) fields a structure; names, titles and shapes are not dtypes. Sets
  // `object` when any dtype in it is an object: dtype.hasobject, so numpy.load unpickles the data.
  bool walk_descr(bool& object) {
    enum class Role : std::uint8_t { dtype, fields, field, subarray, other };
    struct Frame {
      Role role;
      unsigned index;
      char close;
    };
    Frame stack[kMaxDepth];
    unsigned depth = 0;
    const auto role_of_next = [&]() {
      if (depth == 0) return Role::dtype;
      const Frame& f = stack[depth - 1];
      switch (f.role) {
        case Role::fields: return Role::field;
        case Role::field: return f.index == 1 ? Role::dtype : Role::other;
        case Role::subarray: return f.index == 0 ? Role::dtype : Role::other;
        default: return Role::other;
      }
    };
    do {
      space();
      if (i_ >= s_.size()) return false;
      const char c = s_[i_];
      if (c == '[' || c == '(') {
        if (depth == kMaxDepth) return false;
        const Role r = role_of_next();
        Role inner = Role::other;
        if (r == Role::dtype) inner = c == '[' ? Role::fields : Role::subarray;
        if (r == Role::field) inner = Role::field;  // a tuple or a list: Python unpacks either
        stack[depth++] = Frame{inner, 0, c == '[' ? ']' : ')'};
        ++i_;
        continue;
      }
      if (c == ']' || c == ')') {
        if (depth == 0 || stack[depth - 1].close != c) return false;
        --depth;
        ++i_;
      } else if (c == '\'' || c == '"') {
        const Role r = role_of_next();
        const auto text = string();
        if (!text) return false;
        if (r == Role::dtype && names_object(*text)) object = true;
      } else if (!word()) {
        return false;
      }
      if (depth) {
        if (!eat(',') && !peek(stack[depth - 1].close)) return false;
        ++stack[depth - 1].index;
      }
    } while (depth > 0);
    return true;
  }
  bool at_end() {
    space();
    return i_ == s_.size();
  }

 private:
  std::string_view s_;
  std::size_t i_ = 0;
};

std::optional<std::uint64_t> to_u64(std::string_view w) {
  if (w.empty() || w.size() > 19) return std::nullopt;
  std::uint64_t v = 0;
  for (const char c : w) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return v;
}

}  // namespace

// NumPy's spellings of the object dtype: "O" with an optional byte order and size, "object".
bool names_object(std::string_view d) {
  if (!d.empty() && (d[0] == '<' || d[0] == '>' || d[0] == '|' || d[0] == '=')) d.remove_prefix(1);
  return d.starts_with('O') || d.starts_with("object");
}

DtypeSize npy_dtype_size(std::string_view d) {
  if (!d.empty() && (d[0] == '<' || d[0] == '>' || d[0] == '|' || d[0] == '=')) d.remove_prefix(1);
  if (d.empty()) return {};
  const char kind = d[0];
  std::string_view rest = d.substr(1);
  if (kind == 'O') return {std::nullopt, true, rest.empty() || rest == "8" || rest == "4"};
  if ((kind == 'M' || kind == 'm') && rest.find('[') != std::string_view::npos) rest = rest.substr(0, rest.find('['));
  const auto n = to_u64(rest);
  if (!n) return {};
  switch (kind) {
    case 'b': case 'i': case 'u': case 'f': case 'c': case 'S': case 'V': case 'M': case 'm': case 'a':
      return {*n, false, true};
    case 'U': return {*n > UINT64_MAX / 4 ? std::nullopt : std::optional<std::uint64_t>(*n * 4), false, *n <= UINT64_MAX / 4};
    default: return {};
  }
}

HeaderResult parse_npy_header(std::string_view text) {
  Lexer lx(text);
  NpyHeader h;
  bool have_descr = false, have_order = false, have_shape = false;
  if (!lx.eat('{')) return {std::nullopt, "the header is not a dict literal"};
  while (!lx.eat('}')) {
    const auto key = lx.string();
    if (!key || !lx.eat(':')) return {std::nullopt, "the header dict has a malformed key"};
    if (*key == "descr" && !have_descr) {
      have_descr = true;
      if (lx.peek('[') || lx.peek('(')) {
        h.structured = true;
        h.descr = lx.peek('[') ? "[structured]" : "(subarray)";
        if (!lx.walk_descr(h.object)) return {std::nullopt, "descr is a malformed structured dtype"};
      } else {
        const auto d = lx.string();
        if (!d) return {std::nullopt, "descr is not a dtype string"};
        const DtypeSize size = npy_dtype_size(*d);
        if (!size.valid) return {std::nullopt, "descr names no dtype NumPy knows"};
        h.descr = *d;
        h.item_size = size.bytes;
        h.object = size.object;
      }
    } else if (*key == "fortran_order" && !have_order) {
      have_order = true;
      const auto w = lx.word();
      if (!w || (*w != "True" && *w != "False")) return {std::nullopt, "fortran_order is not True or False"};
      h.fortran_order = *w == "True";
    } else if (*key == "shape" && !have_shape) {
      have_shape = true;
      if (!lx.eat('(')) return {std::nullopt, "shape is not a tuple"};
      while (!lx.eat(')')) {
        const auto w = lx.word();
        const auto d = w ? to_u64(*w) : std::nullopt;
        if (!d) return {std::nullopt, "shape holds something other than non-negative integers"};
        h.shape.push_back(*d);
        if (h.shape.size() > 64) return {std::nullopt, "shape has more than 64 dimensions"};
        if (!lx.eat(',') && !lx.peek(')')) return {std::nullopt, "shape is a malformed tuple"};
      }
    } else {
      return {std::nullopt, "the header dict holds a key other than descr, fortran_order and shape, or one twice"};
    }
    if (!lx.eat(',') && !lx.peek('}')) return {std::nullopt, "the header dict is malformed"};
  }
  if (!have_descr || !have_order || !have_shape) return {std::nullopt, "the header dict lacks descr, fortran_order or shape"};
  if (!lx.at_end()) return {std::nullopt, "something other than padding follows the header dict"};
  return {std::move(h), {}};
}

}  // namespace tensorgate::detail::npy
