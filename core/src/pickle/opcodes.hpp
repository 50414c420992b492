#pragma once
// The opcodes of pickle protocols 0 to 5 (CPython's pickletools table): what argument each
// takes, so the byte loop can gather it before the stack machine runs the opcode.
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tensorgate::detail::pickle {

enum class Arg : std::uint8_t {
  none,
  fixed,    // `width` bytes (integers, floats)
  counted,  // a little-endian length of `width` bytes, then that many bytes
  line,     // text up to '\n'
  line2,    // two lines (GLOBAL, INST: module and name)
};

// What a counted or line argument holds.
enum class Payload : std::uint8_t { none, text, ascii, bytes, long_int, decimal, floating };

struct OpInfo {
  // pickletools' name, NUL-padded (the longest is 16); empty: not an opcode. Characters, not a
  // string_view, so that the table holds no address a start must relocate (common/string_pool.hpp).
  char name_chars[16] = {};
  Arg arg = Arg::none;
  std::uint8_t width = 0;
  bool signed_length = false;  // BINSTRING, LONG4: a negative length is malformed
  Payload payload = Payload::none;
  std::uint8_t proto = 0;  // the protocol that introduced it

  constexpr bool known() const { return name_chars[0] != '\0'; }
  constexpr std::string_view name() const {
    std::size_t n = 0;
    while (n < sizeof name_chars && name_chars[n] != '\0') ++n;
    return {name_chars, n};
  }
};

const OpInfo& op_info(std::uint8_t op);

// Opcode bytes, named as pickletools names them.
namespace op {
inline constexpr std::uint8_t MARK = '(', STOP = '.', POP = '0', POP_MARK = '1', DUP = '2',
    FLOAT = 'F', INT = 'I', BININT = 'J', BININT1 = 'K', LONG = 'L', BININT2 = 'M', NONE = 'N',
    PERSID = 'P', BINPERSID = 'Q', REDUCE = 'R', STRING = 'S', BINSTRING = 'T', SHORT_BINSTRING = 'U',
    UNICODE = 'V', BINUNICODE = 'X', APPEND = 'a', BUILD = 'b', GLOBAL = 'c', DICT = 'd',
    EMPTY_DICT = '}', APPENDS = 'e', GET = 'g', BINGET = 'h', INST = 'i', LONG_BINGET = 'j',
    LIST = 'l', EMPTY_LIST = ']', OBJ = 'o', PUT = 'p', BINPUT = 'q', LONG_BINPUT = 'r',
    SETITEM = 's', TUPLE = 't', EMPTY_TUPLE = ')', SETITEMS = 'u', BINFLOAT = 'G',
    PROTO = 0x80, NEWOBJ = 0x81, EXT1 = 0x82, EXT2 = 0x83, EXT4 = 0x84, TUPLE1 = 0x85,
    TUPLE2 = 0x86, TUPLE3 = 0x87, NEWTRUE = 0x88, NEWFALSE = 0x89, LONG1 = 0x8a, LONG4 = 0x8b,
    BINBYTES = 'B', SHORT_BINBYTES = 'C', SHORT_BINUNICODE = 0x8c, BINUNICODE8 = 0x8d,
    BINBYTES8 = 0x8e, EMPTY_SET = 0x8f, ADDITEMS = 0x90, FROZENSET = 0x91, NEWOBJ_EX = 0x92,
    STACK_GLOBAL = 0x93, MEMOIZE = 0x94, FRAME = 0x95, BYTEARRAY8 = 0x96, NEXT_BUFFER = 0x97,
    READONLY_BUFFER = 0x98;
}  // namespace op

}  // namespace tensorgate::detail::pickle
