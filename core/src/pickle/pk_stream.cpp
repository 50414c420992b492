// The stream around the opcodes: STOP and what follows it (another pickle, the legacy torch
// stream's next pickle or its raw storages, trailing bytes), the end of the input (truncation,
// a missing STOP, a FRAME past the end), malformed streams and capacity limits.
#include <string>

#include "pickle/scanner.hpp"
#include "pickle/summary_bytes.hpp"

namespace tensorgate::detail::pickle {

std::uint64_t Scanner::offset_of(std::uint64_t stream_pos) const {
  return site_.exact ? site_.base + stream_pos : site_.base;
}

std::string Scanner::at_op() const {
  std::string s = std::string(info_ ? info_->name() : "opcode") + " at byte " + std::to_string(offset_of(op_pos_));
  if (!site_.exact) s += " (byte " + std::to_string(op_pos_) + " of the decompressed entry)";
  return s;
}

// Malformed from here: a loader stops at this opcode, so nothing after it is interpreted;
// what was found before it stands.
void Scanner::malformed(Rule rule, std::string message) {
  site_.findings->add(rule, site_.where + std::move(message), offset_of(op_pos_));
  state_ = St::stopped;
}

void Scanner::abort_with(std::string limit, std::string message, AbortKind kind) {
  if (!aborted_) aborted_ = Aborted{std::move(limit), site_.where + std::move(message), kind};
  state_ = St::stopped;
}

// The memory the machine and the summary hold, acquired from the shared budget a mebibyte at
// a time.
bool Scanner::charge() {
  const std::size_t used = static_cast<std::size_t>(m_.memory() + summary_memory_);
  if (used <= budget_held_) return true;
  const std::size_t step = std::max<std::size_t>(used - budget_held_, 1 << 20);
  if (!budget_->try_acquire(step)) {
    abort_with("pickle-memory-budget", "no memory left in the shared budget for " + std::to_string(used) +
                                           " bytes of pickle scanner state",
               AbortKind::memory_budget);
    return false;
  }
  budget_held_ += step;
  return true;
}

void Scanner::on_stop() {
  if (!need(1)) return;
  const Value result = m_.pop();
  if (pickles_ == 0) {
    first_protocol_ = proto_ ? proto_ : highest_op_protocol_;
    legacy_ = (result.flags & kTorchMagic) != 0;
  }
  ++pickles_;
  m_.reset();
  tensor_infos_.clear();
  proto_ = 0;
  highest_op_protocol_ = 0;
  // torch's legacy format: magic number, protocol version, system info, the data, the storage
  // keys; a loader reads all five whatever their first bytes, then raw storages follow.
  if (legacy_) {
    state_ = pickles_ < 5 ? St::opcode : St::counting;
    return;
  }
  state_ = St::between;
}

// After a STOP: a byte that is an opcode begins another pickle (a loader that reads on runs
// it); anything else is trailing data no loader reads.
std::size_t Scanner::take_between(const unsigned char* p, std::size_t) {
  if (op_info(p[0]).known()) {
    state_ = St::opcode;
    storage_class_bytes_ = 0;  // a new pickle
    return 0;
  }
  static constexpr char kHex[] = "0123456789abcdef";
  site_.findings->add(Rule::pk_trailing_data,
                      site_.where + "the bytes from " + std::to_string(offset_of(pos_)) +
                          " on follow the last pickle's STOP and begin with 0x" + kHex[p[0] >> 4] + kHex[p[0] & 15] +
                          ", no opcode: a loader reading one pickle ignores them",
                      offset_of(pos_));
  state_ = St::counting;
  return 0;
}

void Scanner::finish() {
  if (state_ == St::stopped) return;
  // CPython reads a FRAME whole before running it: one that passes the end fails there.
  if (frame_end_ && *frame_end_ > pos_) {
    site_.findings->add(Rule::pk_truncated,
                        site_.where + "the FRAME at byte " + std::to_string(offset_of(frame_op_pos_)) +
                            " runs to byte " + std::to_string(offset_of(*frame_end_)) + ", past the end of the input (" +
                            std::to_string(offset_of(pos_)) + ")",
                        offset_of(frame_op_pos_));
    state_ = St::stopped;
    return;
  }
  switch (state_) {
    case St::opcode:
      if (pos_ == 0) {
        site_.findings->add(Rule::pk_no_stop, site_.where + "the input ends before the first opcode", offset_of(0));
      } else {
        site_.findings->add(Rule::pk_no_stop,
                            site_.where + "the input ends after " + std::to_string(opcodes_) + " opcodes without STOP" +
                                (legacy_ ? " (a legacy torch.save stream holds five pickles; " +
                                               std::to_string(pickles_) + " ended)"
                                         : ""),
                            offset_of(pos_));
      }
      break;
    case St::fixed:
    case St::payload:
    case St::line:
      site_.findings->add(Rule::pk_truncated,
                          site_.where + "the input ends inside the argument of " + at_op() +
                              (state_ == St::payload ? " (" + std::to_string(length_) + " bytes announced, " +
                                                           std::to_string(length_ - left_) + " arrived)"
                                                     : ""),
                          offset_of(op_pos_));
      break;
    case St::joblib_pad:
    case St::joblib_padding:
    case St::joblib_bytes:
      site_.findings->add(Rule::pk_truncated,
                          site_.where + "the input ends inside the bytes of the joblib array built at byte " +
                              std::to_string(offset_of(op_pos_)) + " (" + std::to_string(array_left_ + pad_left_) +
                              " more announced)",
                          offset_of(op_pos_));
      break;
    case St::joblib_inner:
      inner_->finish();  // its truncation or missing STOP, in this file's findings
      inner_.reset();
      break;
    default:
      return;  // between pickles or counting: a clean end
  }
  state_ = St::stopped;
}

std::size_t Scanner::summary_heap_bytes() const {
  return heap_bytes(globals_) + heap_bytes(tensors_) + heap_bytes(storages_);
}

PickleSummary Scanner::summary() const {
  PickleSummary s;
  s.protocol = pickles_ ? first_protocol_ : (proto_ ? proto_ : highest_op_protocol_);
  s.pickles = pickles_;
  s.opcodes = opcodes_;
  s.legacy_torch = legacy_;
  s.trailing_bytes = trailing_;
  s.joblib_arrays = joblib_arrays_;
  s.joblib_array_bytes = joblib_array_bytes_;
  s.globals = globals_;
  s.globals_dropped = globals_dropped_;
  s.tensors = tensors_;
  s.tensors_dropped = tensors_dropped_;
  s.parameters = tensor_parameters_;
  s.bytes = tensor_bytes_;
  s.storages = storages_;
  s.storages_dropped = storages_dropped_;
  return s;
}

}  // namespace tensorgate::detail::pickle
