#pragma once
// The operator names of a mobile archive's bytecode.pkl (TS.code). The lite interpreter runs the
// program bytecode.pkl holds, whatever the code files say, and finds each operator by the name
// its table gives ("aten::linear", "my_lib::op"). The pickle scanner reads the pickle; this reads
// the same bytes for those names as they stream: a run of identifier characters, "::", and a run
// of name characters, with O(1) state (each run kept up to Limits::torchscript.max_name_bytes: a
// longer namespace run starts over, and what is kept of it is no namespace of TorchScript's). A name is stored as the
// pickle's string bytes, so the run before it may hold its length byte (SHORT_BINUNICODE) and
// the run after it a memo opcode (BINPUT 'q', LONG_BINPUT 'r') and its index: one leading
// character of the namespace, and an operator name's tail from 'q' or 'r' on, are forgiven.
// Its findings are kept apart and added when the entry ends, after the pickle scanner's: the two
// read the same chunks, and their findings must not interleave by where the chunks were cut.
#include <cstdint>
#include <string>

#include "common/finding_list.hpp"
#include "tensorgate/limits.hpp"

namespace tensorgate::detail::torchscript {

class OperatorNames {
 public:
  // `where`: the message prefix naming the entry; findings point at `base` (+ the position
  // when `exact`).
  OperatorNames(const TorchScriptLimits& limits, FindingList& findings, std::uint32_t cap, std::uint64_t base, bool exact,
                std::string where)
      : run_max_(limits.max_name_bytes), findings_(findings), own_(cap), base_(base), exact_(exact), where_(std::move(where)) {}

  void feed(const unsigned char* p, std::size_t n);
  void finish();  // the entry has ended: the findings go to the owner's list

 private:
  void judge();

  std::size_t run_max_;
  FindingList& findings_;
  FindingList own_;
  std::uint64_t base_;
  bool exact_;
  std::string where_;
  std::uint64_t pos_ = 0, at_ = 0;  // bytes taken; where the operator's "::" began
  std::string run_;                 // the identifier run so far (restarted past run_max_ bytes)
  bool run_long_ = false;           // it was restarted
  std::string ns_, op_;
  bool colon_ = false;              // the last byte was a ':' after a run
  bool in_op_ = false;
};

}  // namespace tensorgate::detail::torchscript
