#pragma once
// The pickle scanner: a push state machine over a stream of pickles (fed chunks of any size),
// and a symbolic stack machine that runs each opcode as CPython's C unpickler would, on values
// it only knows by kind (and, for strings, tuples, globals and tensors, by content). It
// resolves the module and name of every GLOBAL, STACK_GLOBAL and INST through the stack and
// the memo, judges them against the lists, and notes what is called; it never recurses and
// never allocates from a length the stream announces.
//
// Used alone (PickleValidator: a .pkl, a legacy torch.save stream), by the zip walker for the
// pickles inside an archive, and by the .npy validator for object arrays. Findings go to the
// owner's FindingList; offsets are the owner's file offsets (ScanSite).
#include <array>
#include <boost/unordered/unordered_flat_map.hpp>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/finding_list.hpp"
#include "common/seeded_hash.hpp"
#include "pickle/machine.hpp"
#include "pickle/opcodes.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/pickle.hpp"
#include "tensorgate/report.hpp"

namespace tensorgate::detail::pickle {

class DeferredGlobals;

// Where a scanner's findings go.
struct ScanSite {
  FindingList* findings = nullptr;
  std::uint64_t base = 0;  // file offset of the stream's first byte
  bool exact = true;       // false: the stream is decompressed; findings point at `base`
  std::string where;       // a prefix for messages ("entry \"archive/data.pkl\": ") or empty
  // A zip archive's pickles: TorchScript's globals are left here for the walker to judge when
  // the archive ends (pickle/torchscript_globals.hpp); null elsewhere.
  DeferredGlobals* deferred = nullptr;
  // The policy in force (Limits::policy), or null. Shared, not borrowed: a face's Limits may be
  // gone before the validator it made is finished.
  std::shared_ptr<const Policy> policy = nullptr;
};

struct StringHash {
  using is_avalanching = std::true_type;
  std::size_t operator()(std::string_view s) const { return seeded_hash(s); }
};

class Scanner {
 public:
  Scanner(const PickleLimits& limits, ScanSite site, MemoryBudget* budget);
  ~Scanner();
  Scanner(const Scanner&) = delete;
  Scanner& operator=(const Scanner&) = delete;

  void feed(const unsigned char* p, std::size_t n);
  // Feeds bytes up to and including the next STOP, or all of them: the owner of a stream that
  // interleaves pickles with raw bytes (torch's legacy tar members) reads what follows a pickle
  // itself and tells the scanner with skip(). Returns the bytes taken.
  std::size_t feed_to_stop(const unsigned char* p, std::size_t n);
  void finish();  // the stream has ended: truncation and a missing STOP become findings
  // Bytes the owner did not feed because the scanner only counts (counting() or stopped()).
  void skip(std::uint64_t n) {
    pos_ += n;
    if (state_ == St::counting) trailing_ += n;
    if (state_ == St::joblib_bytes) array_bytes_done(n);
  }
  // A pickle file by itself: a joblib.dump file's arrays are read as joblib reads them (pk_joblib.cpp).
  void follow_joblib_arrays() { joblib_ = true; }
  // A joblib array's raw bytes the scanner only counts, still to come (0 when it is not in one):
  // an owner that seeks may skip up to these with skip().
  std::uint64_t array_bytes_left() const { return state_ == St::joblib_bytes ? array_left_ : 0; }

  // Nothing more is interpreted: a malformed stream, or a capacity limit (aborted()).
  bool stopped() const { return state_ == St::stopped; }
  // Past the last pickle: the rest is only counted (a legacy stream's storages, trailing data).
  bool counting() const { return state_ == St::counting; }
  bool between_pickles() const { return state_ == St::between; }
  const std::optional<Aborted>& aborted() const { return aborted_; }
  std::uint64_t position() const { return pos_; }
  std::uint64_t globals_seen() const { return globals_seen_; }
  std::uint64_t pickles_ended() const { return pickles_; }  // STOPs run
  // What a copy of summary() holds on the heap (pickle/summary_bytes.hpp), before it is made.
  std::size_t summary_heap_bytes() const;
  // Charges a copy of summary() about to be made (a report's, which lives as long as this
  // scanner) to the budget, until the scanner goes; false when the budget refuses.
  bool charge_copy() const;
  const std::vector<PickleStorage>& storages() const { return storages_; }  // summary().storages
  // Imports whose module and name are Python dotted identifiers (what an import can find):
  // the polyglot probe counts these, not stray text read as GLOBAL lines.
  std::uint64_t importable_globals() const { return importable_; }
  const std::string& first_importable() const { return first_importable_; }
  // The element size of the torch.<Type>Storage class the pickle being read, or the one that
  // just ended, imported last; 0 when it imported none.
  std::uint32_t storage_class_bytes() const { return storage_class_bytes_; }
  PickleSummary summary() const;

 private:
  enum class St : std::uint8_t {
    opcode, fixed, payload, line, between, counting, stopped,
    joblib_pad,      // the byte that says how many alignment bytes follow
    joblib_padding,  // those bytes
    joblib_bytes,    // a joblib array's raw bytes, counted
    joblib_inner,  // an object array's own pickle, through inner_
  };

  // scanner.cpp: the byte loop and argument gathering.
  std::size_t step(const unsigned char* p, std::size_t n);
  std::size_t take_opcodes(const unsigned char* p, std::size_t n);
  std::size_t take_opcode(const unsigned char* p, std::size_t n);
  std::size_t take_fixed(const unsigned char* p, std::size_t n);
  std::size_t take_payload(const unsigned char* p, std::size_t n);
  std::size_t take_line(const unsigned char* p, std::size_t n);
  void on_fixed(std::uint64_t v);
  void start_payload(std::uint64_t length);
  void on_payload(std::string_view kept, std::uint64_t length);
  void on_line_done();

  // pk_stream.cpp: pickles back to back, the legacy torch stream, malformed streams.
  void on_stop();
  std::size_t take_between(const unsigned char* p, std::size_t n);
  void malformed(Rule rule, std::string message);
  void abort_with(std::string limit, std::string message, AbortKind kind = AbortKind::limit);
  bool charge();
  // Whether the budget covers what the machine and the summary hold, charging more if not
  // (inline: asked after every opcode).
  bool covered() { return !budget_ || m_.memory() + summary_memory_ <= budget_held_ || charge(); }
  // Room for one more item in a summary list: when the list must grow, its new block is charged
  // before it is allocated (by capacity: a list of 262,144 tensors grows by tens of megabytes at
  // once). False when the budget refuses (the scan is aborted).
  template <class T>
  bool room_for_one(std::vector<T>& list) {
    if (list.size() < list.capacity()) return true;
    const std::size_t grown = list.capacity() ? 2 * list.capacity() : 16;
    summary_memory_ += (grown - list.capacity()) * sizeof(T);
    if (!covered()) return false;
    list.reserve(grown);
    return true;
  }
  std::uint64_t offset_of(std::uint64_t stream_pos) const;
  std::string at_op() const;  // "OPNAME at byte N" for messages

  // pk_stack.cpp: stack, marks, memo and the containers.
  void exec(std::uint8_t op);                 // opcodes without an argument
  bool need(std::size_t n);                   // n values above the fence, or stack underflow
  bool push(const Value& v);
  std::optional<std::size_t> marker();        // pop the last mark, or mark-missing
  void memo_put(std::uint64_t index);
  void memo_get(std::uint64_t index);
  void container_items(std::size_t target, std::size_t first, bool pairs);
  void exec_tuple(std::size_t n);

  // pk_scalars.cpp: the arguments of scalar opcodes.
  void exec_fixed(std::uint8_t op, std::uint64_t v);
  void exec_payload(std::uint8_t op, std::string_view kept, std::uint64_t length);
  void exec_line(std::uint8_t op, std::string_view kept, std::uint64_t length);

  // pk_globals.cpp: GLOBAL, STACK_GLOBAL, INST, EXT; judging and counting.
  void exec_global(std::string_view module, std::uint64_t module_len, std::string_view name,
                   std::uint64_t name_len, bool inst);
  void exec_stack_global();
  void exec_ext(std::uint64_t code);
  Value import_global(std::string_view module, std::string_view name, std::string_view how);
  void count_call(const Value& callable);

  // pk_calls.cpp: REDUCE, NEWOBJ(_EX), OBJ, BUILD, persistent ids, tensors.
  void exec_reduce();
  void exec_newobj(bool ex);
  void exec_obj();
  void exec_build();
  void exec_binpersid();
  void check_mutation(const Value& target, std::string_view what);
  Value call_result(const Value& callable, const Value& args);
  Value rebuild_tensor(std::string_view fn, const Value& args);

  // pk_joblib.cpp: joblib.dump's arrays, whose bytes follow the wrapper's BUILD outside the
  // opcodes (a pad byte and its pad first, from joblib 1.2; an object array's own pickle).
  Value dtype_value(const Value& callable, const Value& args);
  void note_joblib_item(std::size_t target, const Value& key, const Value& value);
  bool is_array_wrapper(const Value& inst) const;
  std::optional<std::uint32_t> wrapper_class_in(const Value& args) const;
  void start_joblib_array(const Value& state);
  std::size_t take_joblib(const unsigned char* p, std::size_t n);
  void array_bytes_done(std::uint64_t n);
  void end_joblib_array();
  bool row_major(const std::vector<std::uint64_t>& shape, const Value& stride) const;
  void note_dict_item(const Value& key, const Value& value);

  PickleLimits limits_;
  ScanSite site_;
  // A NumpyArrayWrapper's BUILD is followed by its array's bytes: only for a pickle file by
  // itself, which joblib.load may read (follow_joblib_arrays); never inside an archive, whose
  // loader (torch.load) runs those bytes as opcodes, nor in an object array's own pickle.
  bool joblib_ = false;
  MemoryBudget* budget_;
  std::size_t budget_held_ = 0;
  mutable std::size_t copies_held_ = 0;  // charge_copy(): reports' copies of the summary
  std::optional<Aborted> aborted_;
  St state_ = St::opcode;
  std::uint64_t pos_ = 0;      // stream bytes consumed
  Machine m_;

  // The opcode being read and its argument.
  std::uint8_t op_ = 0;
  const OpInfo* info_ = nullptr;
  std::uint64_t op_pos_ = 0;
  std::array<unsigned char, 8> scratch_{};
  unsigned need_ = 0, have_ = 0;
  bool length_field_ = false;   // the fixed field being read is a counted argument's length
  std::uint64_t left_ = 0;      // payload bytes still to come
  std::uint64_t length_ = 0;    // the payload's or line's whole length
  bool keep_ = false;           // payload or line text kept in buf_
  std::string buf_;             // kept payload, or the current line's kept prefix
  std::string first_line_;      // line2: the module line's kept prefix
  std::uint64_t first_length_ = 0;
  unsigned line_no_ = 0;
  bool line_digits_ = true, line_ascii_ = true;  // over the whole line, kept or not
  unsigned char line_first_ = 0, line_last_ = 0;

  // The pickle being read and the stream.
  std::uint64_t pickles_ = 0;   // completed
  std::uint32_t first_protocol_ = 0;
  std::uint32_t proto_ = 0;     // PROTO of the current pickle (0 when none)
  std::uint32_t highest_op_protocol_ = 0;
  std::uint64_t opcodes_ = 0;
  bool legacy_ = false;
  std::uint64_t trailing_ = 0;
  std::optional<std::uint64_t> frame_end_;  // the furthest FRAME end announced (stream position)
  std::uint64_t frame_op_pos_ = 0;

  // Globals: judged once, counted; the summary's list is bounded.
  std::vector<PickleGlobal> globals_;
  boost::unordered_flat_map<std::string, std::uint32_t, StringHash> global_index_;
  std::uint64_t globals_dropped_ = 0;
  std::uint64_t globals_seen_ = 0;  // imports of any global
  std::uint64_t importable_ = 0;
  std::string first_importable_;
  std::uint32_t storage_class_bytes_ = 0;

  // Tensors and storages the pickle shows.
  struct TensorInfo {
    std::uint32_t storage = kNoRef;  // index into storages_
    std::string dtype;
    std::uint32_t dtype_bytes = 0;
    std::vector<std::uint64_t> shape;
    std::uint64_t offset = 0;
    bool contiguous = false;
  };
  std::vector<TensorInfo> tensor_infos_;  // rebuilt tensors of the current pickle
  std::vector<PickleTensor> tensors_;     // named by a dict key: the summary
  std::uint64_t tensors_dropped_ = 0;
  std::uint64_t tensor_parameters_ = 0, tensor_bytes_ = 0;  // of every tensor, dropped ones too
  std::vector<PickleStorage> storages_;
  std::vector<std::uint32_t> storage_elem_;  // element size of each storage's dtype (0: unknown)
  boost::unordered_flat_map<std::string, std::uint32_t, StringHash> storage_index_;
  std::uint64_t storages_dropped_ = 0;
  std::uint64_t summary_memory_ = 0;

  // joblib: the state dict of the wrapper being built (the last dict given these keys; the
  // dict's value carries `serial` in its num), the array under way, and what was seen.
  struct JoblibState {
    std::uint64_t serial = 0;
    bool has_shape = false, shape_ok = false, has_dtype = false;
    std::vector<std::uint64_t> shape;
    Value dtype;
    std::optional<std::uint64_t> alignment;  // numpy_array_alignment_bytes (joblib 1.2+)
  };
  JoblibState wrapper_state_;
  std::uint64_t joblib_serial_ = 0;
  Value array_value_;                      // what replaces the wrapper once its bytes are read
  std::uint64_t array_left_ = 0, pad_left_ = 0;
  std::unique_ptr<Scanner> inner_;         // an object array's pickle
  std::uint64_t joblib_arrays_ = 0, joblib_array_bytes_ = 0;
};

}  // namespace tensorgate::detail::pickle
