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
  return stack_memory_ + memo_dense_.memory() + sparse_memory_ + arena_.memory() + strings_.memory() +
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

bool Machine::memo_put(std::uint64_t index, const Value& v) {
  // Dense while the indices come in order (with small gaps): a block slot, no hashing.
  constexpr std::uint64_t kGap = 64;
  if (index < memo_dense_.size()) {
    Value& slot = memo_dense_[index];
    if (slot.kind == Kind::unset) ++memo_count_;
    slot = v;
    return true;
  }
  if (const auto it = memo_sparse_.find(index); it != memo_sparse_.end()) {
    it->second = v;
    return true;
  }
  if (memo_count_ >= limits_.max_memo) return false;
  ++memo_count_;
  // At least half the dense slots hold a value: indices 0, 63, 126, ... go to the hash map.
  if (index < memo_dense_.size() + kGap && index < 2 * memo_count_ + kGap && memo_sparse_.empty()) {
    memo_dense_.resize(index, Value{Kind::unset});
    memo_dense_.push_back(v);
    return true;
  }
  sparse_memory_ += 2 * (sizeof(Value) + sizeof(std::uint64_t));
  memo_sparse_.emplace(index, v);
  return true;
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
