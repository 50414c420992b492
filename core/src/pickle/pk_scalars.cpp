// The opcodes with an argument that make a value or address the memo: integers, floats,
// strings and bytes (binary and text forms), PROTO, FRAME, the memo's PUT and GET. Text
// arguments are checked the way CPython parses them (permissively where it is permissive:
// int() takes hex, underscores and signs); strings are decoded (escapes undone) when kept, so
// that a module name written with escapes is matched as what it spells.
#include <cstring>
#include <string>

#include "pickle/scanner.hpp"
#include "pickle/text_args.hpp"

namespace tensorgate::detail::pickle {
namespace {

// torch.save's legacy magic number 0x1950a86a20f9469cfc6c, as LONG1 writes it (little-endian).
constexpr unsigned char kTorchMagicBytes[10] = {0x6c, 0xfc, 0x9c, 0x46, 0xf9, 0x20, 0x6a, 0xa8, 0x50, 0x19};

}  // namespace

void Scanner::exec_fixed(std::uint8_t o, std::uint64_t v) {
  switch (o) {
    case op::BININT:
      push({Kind::integer, 0, kNoRef, static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int32_t>(v)))});
      return;
    case op::BININT1:
    case op::BININT2: push({Kind::integer, 0, kNoRef, v}); return;
    case op::BINFLOAT: push({Kind::floating}); return;
    case op::BINGET:
    case op::LONG_BINGET: return memo_get(v);
    case op::BINPUT:
    case op::LONG_BINPUT: return memo_put(v);
    case op::PROTO:
      if (v > 5) return malformed(Rule::pk_protocol, at_op() + " names protocol " + std::to_string(v) + "; the highest is 5");
      if (!proto_) proto_ = static_cast<std::uint32_t>(v);
      return;
    case op::EXT1:
    case op::EXT2:
    case op::EXT4:
      if (static_cast<std::int32_t>(v) <= 0 && o == op::EXT4)
        return malformed(Rule::pk_argument, at_op() + " has the code " + std::to_string(static_cast<std::int32_t>(v)) + " (codes are positive)");
      if (v == 0) return malformed(Rule::pk_argument, at_op() + " has the code 0 (codes are positive)");
      return exec_ext(v);
    case op::FRAME:
      if (v > static_cast<std::uint64_t>(INT64_MAX))
        return malformed(Rule::pk_argument, at_op() + " announces " + std::to_string(v) + " bytes");
      if (!frame_end_ || pos_ + v > *frame_end_) {
        frame_end_ = pos_ + v;
        frame_op_pos_ = op_pos_;
      }
      return;
    default: return;
  }
}

void Scanner::exec_payload(std::uint8_t o, std::string_view kept, std::uint64_t length) {
  switch (info_->payload) {
    case Payload::text:
    case Payload::ascii:
      push(m_.string_value(kept, length));
      return;
    case Payload::bytes: push({Kind::bytes, 0, kNoRef, length}); return;
    case Payload::long_int: {
      Value v{Kind::integer, 0, kNoRef, 0};
      if (length > 8) v.flags |= kBig;
      if (length == sizeof kTorchMagicBytes && kept.size() == length && std::memcmp(kept.data(), kTorchMagicBytes, length) == 0)
        v.flags |= kTorchMagic;
      for (std::size_t i = std::min<std::size_t>(kept.size(), 8); i-- > 0;)
        v.num = (v.num << 8) | static_cast<unsigned char>(kept[i]);
      push(v);
      return;
    }
    default: (void)o; return;
  }
}

void Scanner::exec_line(std::uint8_t o, std::string_view kept, std::uint64_t length) {
  const bool whole = kept.size() == length;  // the line was short enough to keep
  switch (o) {
    case op::INT:
    case op::LONG: {
      if (whole ? !is_int_literal(kept, o == op::LONG) : !line_digits_)
        return malformed(Rule::pk_argument, at_op() + " is not an integer: " + quoted_line(kept, length));
      if (o == op::INT && (kept == "00" || kept == "01")) return void(push({Kind::boolean, 0, kNoRef, kept == "01" ? 1u : 0u}));
      Value v{Kind::integer, 0, kNoRef, 0};
      if (const auto n = decimal_value(kept)) v.num = *n; else v.flags |= kBig;
      push(v);
      return;
    }
    case op::FLOAT:
      if (whole && !is_float_literal(kept)) return malformed(Rule::pk_argument, at_op() + " is not a float: " + quoted_line(kept, length));
      push({Kind::floating});
      return;
    case op::GET:
    case op::PUT: {
      const auto index = whole ? decimal_value(kept) : std::nullopt;
      if (!index || (!kept.empty() && kept[0] == '-'))
        return malformed(Rule::pk_argument, at_op() + " needs a memo index, not " + quoted_line(kept, length));
      return o == op::GET ? memo_get(*index) : memo_put(*index);
    }
    case op::STRING: {
      const bool quoted_ok = length >= 2 && line_first_ == line_last_ && (line_first_ == '\'' || line_first_ == '"');
      if (!quoted_ok) return malformed(Rule::pk_argument, at_op() + " must be a quoted string: " + quoted_line(kept, length));
      if (!whole) return void(push(m_.string_value({}, length - 2)));
      const auto decoded = decode_string_escapes(kept.substr(1, kept.size() - 2));
      if (!decoded) return malformed(Rule::pk_argument, at_op() + " has a malformed escape: " + quoted_line(kept, length));
      push(m_.string_value(*decoded, decoded->size()));
      return;
    }
    case op::UNICODE: {
      if (!whole) return void(push(m_.string_value({}, length)));
      const auto decoded = decode_raw_unicode_escape(kept);
      if (!decoded) return malformed(Rule::pk_argument, at_op() + " has a malformed \\u escape: " + quoted_line(kept, length));
      push(m_.string_value(*decoded, decoded->size()));
      return;
    }
    case op::PERSID:
      if (!line_ascii_) return malformed(Rule::pk_argument, "the persistent id of " + at_op() + " is not ASCII");
      push({Kind::persistent});  // persistent_load(pid): whatever the loader's hook returns
      return;
    default: return;
  }
}

}  // namespace tensorgate::detail::pickle
