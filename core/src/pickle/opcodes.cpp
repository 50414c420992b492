// The opcode table, indexed by byte: 68 opcodes of protocols 0 to 5, the rest empty. Built by
// consteval functions: the compiler fills it, no code runs at start (nor shows in coverage).
#include "pickle/opcodes.hpp"

#include <array>

namespace tensorgate::detail::pickle {
namespace {

consteval OpInfo entry(std::string_view n, Arg a, std::uint8_t w, bool s, Payload p) {
  OpInfo o{{}, a, w, s, p};
  // Evaluated at compile time, so a name too long for name_chars stops the build.
  if (n.empty() || n.size() > sizeof o.name_chars) throw "an opcode's name is 1 to 16 characters";
  for (std::size_t i = 0; i < n.size(); ++i) o.name_chars[i] = n[i];
  return o;
}
consteval OpInfo none(std::string_view n) { return entry(n, Arg::none, 0, false, Payload::none); }
consteval OpInfo fixed(std::string_view n, std::uint8_t w) { return entry(n, Arg::fixed, w, false, Payload::none); }
consteval OpInfo counted(std::string_view n, std::uint8_t w, Payload p, bool s = false) {
  return entry(n, Arg::counted, w, s, p);
}
consteval OpInfo line(std::string_view n, Payload p) { return entry(n, Arg::line, 0, false, p); }
consteval OpInfo line2(std::string_view n) { return entry(n, Arg::line2, 0, false, Payload::text); }

consteval std::array<OpInfo, 256> make_table() {
  std::array<OpInfo, 256> t{};
  t[op::MARK] = none("MARK");
  t[op::STOP] = none("STOP");
  t[op::POP] = none("POP");
  t[op::POP_MARK] = none("POP_MARK");
  t[op::DUP] = none("DUP");
  t[op::FLOAT] = line("FLOAT", Payload::floating);
  t[op::INT] = line("INT", Payload::decimal);
  t[op::BININT] = fixed("BININT", 4);
  t[op::BININT1] = fixed("BININT1", 1);
  t[op::LONG] = line("LONG", Payload::decimal);
  t[op::BININT2] = fixed("BININT2", 2);
  t[op::NONE] = none("NONE");
  t[op::PERSID] = line("PERSID", Payload::ascii);
  t[op::BINPERSID] = none("BINPERSID");
  t[op::REDUCE] = none("REDUCE");
  t[op::STRING] = line("STRING", Payload::ascii);
  t[op::BINSTRING] = counted("BINSTRING", 4, Payload::ascii, true);
  t[op::SHORT_BINSTRING] = counted("SHORT_BINSTRING", 1, Payload::ascii);
  t[op::UNICODE] = line("UNICODE", Payload::text);
  t[op::BINUNICODE] = counted("BINUNICODE", 4, Payload::text);
  t[op::APPEND] = none("APPEND");
  t[op::BUILD] = none("BUILD");
  t[op::GLOBAL] = line2("GLOBAL");
  t[op::DICT] = none("DICT");
  t[op::EMPTY_DICT] = none("EMPTY_DICT");
  t[op::APPENDS] = none("APPENDS");
  t[op::GET] = line("GET", Payload::decimal);
  t[op::BINGET] = fixed("BINGET", 1);
  t[op::INST] = line2("INST");
  t[op::LONG_BINGET] = fixed("LONG_BINGET", 4);
  t[op::LIST] = none("LIST");
  t[op::EMPTY_LIST] = none("EMPTY_LIST");
  t[op::OBJ] = none("OBJ");
  t[op::PUT] = line("PUT", Payload::decimal);
  t[op::BINPUT] = fixed("BINPUT", 1);
  t[op::LONG_BINPUT] = fixed("LONG_BINPUT", 4);
  t[op::SETITEM] = none("SETITEM");
  t[op::TUPLE] = none("TUPLE");
  t[op::EMPTY_TUPLE] = none("EMPTY_TUPLE");
  t[op::SETITEMS] = none("SETITEMS");
  t[op::BINFLOAT] = fixed("BINFLOAT", 8);
  t[op::PROTO] = fixed("PROTO", 1);
  t[op::NEWOBJ] = none("NEWOBJ");
  t[op::EXT1] = fixed("EXT1", 1);
  t[op::EXT2] = fixed("EXT2", 2);
  t[op::EXT4] = fixed("EXT4", 4);
  t[op::TUPLE1] = none("TUPLE1");
  t[op::TUPLE2] = none("TUPLE2");
  t[op::TUPLE3] = none("TUPLE3");
  t[op::NEWTRUE] = none("NEWTRUE");
  t[op::NEWFALSE] = none("NEWFALSE");
  t[op::LONG1] = counted("LONG1", 1, Payload::long_int);
  t[op::LONG4] = counted("LONG4", 4, Payload::long_int, true);
  t[op::BINBYTES] = counted("BINBYTES", 4, Payload::bytes);
  t[op::SHORT_BINBYTES] = counted("SHORT_BINBYTES", 1, Payload::bytes);
  t[op::SHORT_BINUNICODE] = counted("SHORT_BINUNICODE", 1, Payload::text);
  t[op::BINUNICODE8] = counted("BINUNICODE8", 8, Payload::text);
  t[op::BINBYTES8] = counted("BINBYTES8", 8, Payload::bytes);
  t[op::EMPTY_SET] = none("EMPTY_SET");
  t[op::ADDITEMS] = none("ADDITEMS");
  t[op::FROZENSET] = none("FROZENSET");
  t[op::NEWOBJ_EX] = none("NEWOBJ_EX");
  t[op::STACK_GLOBAL] = none("STACK_GLOBAL");
  t[op::MEMOIZE] = none("MEMOIZE");
  t[op::FRAME] = fixed("FRAME", 8);
  t[op::BYTEARRAY8] = counted("BYTEARRAY8", 8, Payload::bytes);
  t[op::NEXT_BUFFER] = none("NEXT_BUFFER");
  t[op::READONLY_BUFFER] = none("READONLY_BUFFER");
  // The protocol that introduced each opcode (pickletools' proto).
  t[op::BININT].proto = 1;
  t[op::BININT1].proto = 1;
  t[op::BININT2].proto = 1;
  t[op::LONG1].proto = 2;
  t[op::LONG4].proto = 2;
  t[op::BINSTRING].proto = 1;
  t[op::SHORT_BINSTRING].proto = 1;
  t[op::BINBYTES].proto = 3;
  t[op::SHORT_BINBYTES].proto = 3;
  t[op::BINBYTES8].proto = 4;
  t[op::BYTEARRAY8].proto = 5;
  t[op::NEXT_BUFFER].proto = 5;
  t[op::READONLY_BUFFER].proto = 5;
  t[op::NEWTRUE].proto = 2;
  t[op::NEWFALSE].proto = 2;
  t[op::SHORT_BINUNICODE].proto = 4;
  t[op::BINUNICODE].proto = 1;
  t[op::BINUNICODE8].proto = 4;
  t[op::BINFLOAT].proto = 1;
  t[op::EMPTY_LIST].proto = 1;
  t[op::APPENDS].proto = 1;
  t[op::EMPTY_TUPLE].proto = 1;
  t[op::TUPLE1].proto = 2;
  t[op::TUPLE2].proto = 2;
  t[op::TUPLE3].proto = 2;
  t[op::EMPTY_DICT].proto = 1;
  t[op::SETITEMS].proto = 1;
  t[op::EMPTY_SET].proto = 4;
  t[op::ADDITEMS].proto = 4;
  t[op::FROZENSET].proto = 4;
  t[op::POP_MARK].proto = 1;
  t[op::BINGET].proto = 1;
  t[op::LONG_BINGET].proto = 1;
  t[op::BINPUT].proto = 1;
  t[op::LONG_BINPUT].proto = 1;
  t[op::MEMOIZE].proto = 4;
  t[op::EXT1].proto = 2;
  t[op::EXT2].proto = 2;
  t[op::EXT4].proto = 2;
  t[op::STACK_GLOBAL].proto = 4;
  t[op::OBJ].proto = 1;
  t[op::NEWOBJ].proto = 2;
  t[op::NEWOBJ_EX].proto = 4;
  t[op::PROTO].proto = 2;
  t[op::FRAME].proto = 4;
  t[op::BINPERSID].proto = 1;
  return t;
}

constexpr std::array<OpInfo, 256> kTable = make_table();

consteval int count_known() {
  int n = 0;
  for (const OpInfo& o : kTable) n += o.known();
  return n;
}
static_assert(count_known() == 68, "pickletools lists 68 opcodes for protocols 0-5");

}  // namespace

const OpInfo& op_info(std::uint8_t op) { return kTable[op]; }

}  // namespace tensorgate::detail::pickle
