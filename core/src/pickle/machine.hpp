#pragma once
// The symbolic stack machine's storage: what the scanner knows of each value (its kind, and
// for the few values whose content matters, that content), the stack with CPython's marks and
// fence, and the memo. Nothing here is allocated from a length the file announces: values are
// 16 bytes, strings are kept only up to Limits::pickle.max_kept_string bytes, tuples keep their
// items only up to max_tuple_kept, and every container of the pickle itself (lists, dicts,
// sets) is opaque: its items stream by. Kept strings and tuples no value refers to any more
// are collected (machine_collect.cpp), so what is kept is bounded by what is live, not by the
// length of the pickle.
#include <boost/unordered/unordered_flat_map.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/seeded_hash.hpp"
#include "pickle/pools.hpp"
#include "tensorgate/limits.hpp"

namespace tensorgate::detail::pickle {

enum class Kind : std::uint8_t {
  none, boolean, integer, floating, string, bytes, tuple, list, dict, set,
  global,      // a class, function or object as GLOBAL/STACK_GLOBAL/INST/EXT imported it
  object,      // what a call made (REDUCE, NEWOBJ, OBJ, INST, BUILD's target stays itself)
  persistent,  // what persistent_load returned
  tensor,      // a torch rebuild call's result
  buffer,      // NEXT_BUFFER
  unset,       // an empty memo slot (never on the stack)
};

inline constexpr std::uint32_t kNoRef = 0xffffffffu;

// Value flags.
inline constexpr std::uint8_t kTorchMagic = 1;   // LONG1 of torch's legacy magic number
inline constexpr std::uint8_t kBig = 2;          // an integer that does not fit 64 bits
inline constexpr std::uint8_t kNotKept = 4;      // a string whose text was not kept
inline constexpr std::uint8_t kDenied = 8;       // a global judged dangerous (or unresolved)

struct Value {
  Kind kind = Kind::none;
  std::uint8_t flags = 0;
  std::uint32_t ref = kNoRef;  // string/tuple: pool index; global/object: global index; tensor; persistent
  std::uint64_t num = 0;       // integer value (two's complement), string length, tuple length
};
static_assert(sizeof(Value) == 16);

struct IntHash {
  using is_avalanching = std::true_type;
  std::size_t operator()(std::uint64_t v) const { return seeded_hash_u64(v); }
};

// The stack, the marks (as CPython's C unpickler keeps them: positions on the stack, the last
// one the fence below which nothing may be popped) and the memo of one pickle, plus the pools
// of kept strings and tuple items that values refer to. `charge` reports memory growth so the
// owner can hold it against its limits and budget.
class Machine {
 public:
  explicit Machine(const PickleLimits& limits) : limits_(limits) { schedule_collect(); }

  void reset();  // a new pickle: empty stack, marks, memo and pools

  // --- stack ---------------------------------------------------------------------------------
  std::size_t size() const { return stack_.size(); }
  std::size_t fence() const { return marks_.empty() ? 0 : marks_.back(); }
  std::size_t above_fence() const { return stack_.size() - fence(); }
  bool push(const Value& v);  // false past Limits::pickle.max_stack
  Value pop() {
    const Value v = stack_.back();
    stack_.pop_back();
    return v;
  }
  Value& top() { return stack_.back(); }
  Value& at(std::size_t i) { return stack_[i]; }
  void truncate(std::size_t n) { stack_.resize(n); }
  bool mark();  // false past the stack bound
  bool has_mark() const { return !marks_.empty(); }
  bool top_is_mark() const { return !marks_.empty() && marks_.back() == stack_.size(); }
  std::size_t pop_mark() {
    const std::size_t m = marks_.back();
    marks_.pop_back();
    return m;
  }

  // --- memo ----------------------------------------------------------------------------------
  const Value* memo_get(std::uint64_t index) const;
  bool memo_put(std::uint64_t index, const Value& v);  // false past Limits::pickle.max_memo
  std::uint64_t memo_count() const { return memo_count_; }

  // --- pools ---------------------------------------------------------------------------------
  // A string value of `length` bytes; its text kept when it fits the limits (`text` holds it
  // then, the caller having gathered it).
  Value string_value(std::string_view text, std::uint64_t length);
  std::optional<std::string_view> text(const Value& v) const;
  // A tuple of the `n` values at the stack's top (they stay on the stack).
  Value tuple_of_top(std::size_t n);
  // The kept items of a tuple value: none for any other kind, whose `ref` indexes another pool
  // (a global's, a storage's), and none for a tuple too long to keep.
  bool kept_tuple(const Value& v) const { return v.kind == Kind::tuple && v.ref != kNoRef; }
  std::size_t tuple_size(const Value& v) const { return kept_tuple(v) ? tuples_[v.ref].count : 0; }
  const Value* tuple_items(const Value& v) const {
    return kept_tuple(v) ? items_.at(tuples_[v.ref].place) : nullptr;
  }

  // Between opcodes, when no value is held outside the stack and the memo: drops the kept
  // strings and tuples nothing refers to any more, once enough were kept since the last time
  // that the work pays for itself (machine_collect.cpp).
  void collect_if_due() {
    if (kept_bytes() >= next_collect_) collect();
  }
  std::uint64_t collections() const { return collections_; }

  std::uint64_t memory() const;
  bool kept_strings_exhausted() const { return strings_exhausted_; }

 private:
  struct StringRef {
    std::uint64_t place;  // in arena_
    std::uint32_t length;
    std::uint32_t unused = 0;
  };
  struct TupleRef {
    std::uint64_t place;  // in items_
    std::uint32_t count;
    std::uint32_t unused = 0;
  };
  // Bytes of kept strings and tuple items, with the block ends skipped (what max_kept_bytes bounds).
  std::uint64_t kept_bytes() const { return arena_.used() + items_.used() * sizeof(Value); }
  bool dense_reaches(std::uint64_t index) const;
  void grow_dense_to(std::uint64_t index);
  std::uint64_t sparse_memory() const;
  void collect();
  void schedule_collect();  // sets next_collect_ from what is live now
  void collect_strings(std::vector<std::uint32_t>& renumber);
  void collect_tuples(std::vector<std::uint32_t>& renumber, const std::vector<std::uint32_t>& strings);
  template <typename F>
  void for_each_root(F f);

  const PickleLimits& limits_;
  std::vector<Value> stack_;
  std::vector<std::uint32_t> marks_;
  std::uint64_t stack_memory_ = 0;     // the grown sizes of stack_ and marks_
  BlockVector<Value> memo_dense_;      // indices 0.. as MEMOIZE and the picklers number them; unset: empty
  boost::unordered_flat_map<std::uint64_t, Value, IntHash> memo_sparse_;  // any other index
  std::uint64_t memo_count_ = 0;       // distinct indices stored (MEMOIZE's next index)
  BumpBlocks<char> arena_;             // kept string bytes
  BlockVector<StringRef> strings_;
  BumpBlocks<Value> items_;            // kept tuple items
  BlockVector<TupleRef> tuples_;
  std::uint64_t next_collect_ = 0;     // kept_bytes() at which to collect again
  std::uint64_t collections_ = 0;
  bool strings_exhausted_ = false;
};

}  // namespace tensorgate::detail::pickle
