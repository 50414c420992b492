// The machine's storage: stack, marks, memo (dense where the picklers number it densely,
// hashed elsewhere) and the pools of kept strings and tuple items.
#include "pickle/machine.hpp"

#include <algorithm>
#include <cstring>

namespace tensorgate::detail::pickle {

void Machine::reset() {
  stack_.clear();
  marks_.clear();
  memo_dense_.clear();
  memo_sparse_.clear();
  memo_count_ = 0;
  arena_.clear();
  strings_.clear();
  items_.clear();
  tuples_.clear();
  strings_exhausted_ = false;
  schedule_collect();
  // Capacities and blocks are kept (a stream of many small pickles reuses them); memory()
  // counts them.
}

std::uint64_t Machine::memory() const {
  return stack_memory_ + memo_dense_.memory() + sparse_memory() + arena_.memory() + strings_.memory() +
         items_.memory() + tuples_.memory();
}

bool Machine::push(const Value& v) {
  if (stack_.size() >= limits_.max_stack) return false;
  if (stack_.size() == stack_.capacity()) stack_memory_ += stack_.capacity() * sizeof(Value) + 64;
  stack_.push_back(v);
  return true;
}

bool Machine::mark() {
  if (marks_.size() >= limits_.max_stack) return false;
  if (marks_.size() == marks_.capacity()) stack_memory_ += marks_.capacity() * sizeof(std::uint32_t) + 64;
  marks_.push_back(static_cast<std::uint32_t>(stack_.size()));
  return true;
}

const Value* Machine::memo_get(std::uint64_t index) const {
  if (index < memo_dense_.size()) {
    const Value& v = memo_dense_[index];
    return v.kind == Kind::unset ? nullptr : &v;
  }
  const auto it = memo_sparse_.find(index);
  return it == memo_sparse_.end() ? nullptr : &it->second;
}

// CPython's memo is a dict (pickle.py) or an array it grows to twice the largest index
// (_pickle.c); MEMOIZE stores at len(memo), the number of distinct indices stored. Here the
// memory follows the entries stored, never an index the file names: indices from 0 up, as
// MEMOIZE and the picklers number them, go to a dense run of block slots (no hashing), which
// grows only while at least half its slots could hold a value; any other index goes to a hash
// map. The run keeps growing after a far index was stored (a LONG_BINPUT at 2**31 and then
// MEMOIZE from 1 up is a dense run and one hashed entry), and an entry hashed earlier whose
// index the run reaches moves into it, so each index lives in one place.
bool Machine::memo_put(std::uint64_t index, const Value& v) {
  if (index < memo_dense_.size()) {
    Value& slot = memo_dense_[index];
    if (slot.kind == Kind::unset) {
      if (memo_count_ >= limits_.max_memo) return false;
      ++memo_count_;
    }
    slot = v;
    return true;
  }
  const auto hashed = memo_sparse_.find(index);
  if (hashed != memo_sparse_.end() && !dense_reaches(index)) {
    hashed->second = v;
    return true;
  }
  if (hashed != memo_sparse_.end()) {
    memo_sparse_.erase(hashed);  // moves into the dense run below, counted already
  } else {
    if (memo_count_ >= limits_.max_memo) return false;
    ++memo_count_;
  }
  if (dense_reaches(index)) {
    grow_dense_to(index);
    memo_dense_.push_back(v);
  } else {
    memo_sparse_.emplace(index, v);
  }
  return true;
}

// An index the dense run may grow to: within a small gap of its end, and no further than twice
// the entries stored (so at least half its slots can hold one).
bool Machine::dense_reaches(std::uint64_t index) const {
  constexpr std::uint64_t kGap = 64;
  return index < memo_dense_.size() + kGap && index < 2 * memo_count_ + kGap;
}

// Extends the dense run up to (not including) `index`; hashed entries in that range move in.
void Machine::grow_dense_to(std::uint64_t index) {
  while (memo_dense_.size() < index) {
    const std::uint64_t i = memo_dense_.size();
    const auto it = memo_sparse_.empty() ? memo_sparse_.end() : memo_sparse_.find(i);
    if (it == memo_sparse_.end()) {
      memo_dense_.push_back(Value{Kind::unset});
    } else {
      memo_dense_.push_back(it->second);
      memo_sparse_.erase(it);
    }
  }
}

// The hash map's table (its slots and a byte of metadata each), counted three times: growing,
// it holds the old table and one twice the size at once, so the charge is ahead of the peak.
std::uint64_t Machine::sparse_memory() const {
  return 3 * memo_sparse_.bucket_count() * (sizeof(std::pair<const std::uint64_t, Value>) + 1);
}

Value Machine::string_value(std::string_view text, std::uint64_t length) {
  Value v{Kind::string, 0, kNoRef, length};
  if (length > limits_.max_kept_string || text.size() != length) {
    v.flags = kNotKept;
    return v;
  }
  if (strings_exhausted_ || kept_bytes() + text.size() > limits_.max_kept_bytes ||
      strings_.size() >= kNoRef || text.size() > decltype(arena_)::kLongestRun) {
    strings_exhausted_ = true;
    v.flags = kNotKept;
    return v;
  }
  v.ref = static_cast<std::uint32_t>(strings_.size());
  const std::uint64_t place = arena_.allocate(text.size());
  if (!text.empty()) std::memcpy(arena_.at(place), text.data(), text.size());
  strings_.push_back({place, static_cast<std::uint32_t>(text.size())});
  return v;
}

std::optional<std::string_view> Machine::text(const Value& v) const {
  if (v.kind != Kind::string || (v.flags & kNotKept) || v.ref == kNoRef) return std::nullopt;
  const StringRef r = strings_[v.ref];
  return std::string_view(arena_.at(r.place), r.length);
}

Value Machine::tuple_of_top(std::size_t n) {
  Value v{Kind::tuple, 0, kNoRef, n};
  if (n > limits_.max_tuple_kept || n > decltype(items_)::kLongestRun || tuples_.size() >= kNoRef ||
      kept_bytes() + n * sizeof(Value) > limits_.max_kept_bytes)
    return v;
  v.ref = static_cast<std::uint32_t>(tuples_.size());
  const std::uint64_t place = items_.allocate(n);
  std::copy(stack_.end() - static_cast<std::ptrdiff_t>(n), stack_.end(), items_.at(place));
  tuples_.push_back({place, static_cast<std::uint32_t>(n)});
  return v;
}

}  // namespace tensorgate::detail::pickle
