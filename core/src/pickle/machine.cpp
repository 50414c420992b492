// The machine's storage: stack, marks, memo (dense where the picklers number it densely,
// hashed elsewhere) and the pools of kept strings and tuple items.
#include "pickle/machine.hpp"

namespace tensorgate::detail::pickle {

void Machine::reset() {
  stack_.clear();
  marks_.clear();
  memo_dense_.clear();
  memo_set_.clear();
  memo_sparse_.clear();
  memo_count_ = 0;
  arena_.clear();
  strings_.clear();
  items_.clear();
  tuples_.clear();
  strings_exhausted_ = false;
  // Capacities are kept (a stream of many small pickles reuses them); memory_ counts them.
}

bool Machine::push(const Value& v) {
  if (stack_.size() >= limits_.max_stack) return false;
  if (stack_.size() == stack_.capacity()) grow(stack_.capacity() * sizeof(Value) + 64);
  stack_.push_back(v);
  return true;
}

bool Machine::mark() {
  if (marks_.size() >= limits_.max_stack) return false;
  if (marks_.size() == marks_.capacity()) grow(marks_.capacity() * sizeof(std::uint32_t) + 64);
  marks_.push_back(static_cast<std::uint32_t>(stack_.size()));
  return true;
}

const Value* Machine::memo_get(std::uint64_t index) const {
  if (index < memo_dense_.size()) return memo_set_[index] ? &memo_dense_[index] : nullptr;
  const auto it = memo_sparse_.find(index);
  return it == memo_sparse_.end() ? nullptr : &it->second;
}

bool Machine::memo_put(std::uint64_t index, const Value& v) {
  // Dense while the indices come in order (with small gaps): a vector slot, no hashing.
  constexpr std::uint64_t kGap = 64;
  if (index < memo_dense_.size()) {
    if (!memo_set_[index]) ++memo_count_;
    memo_set_[index] = true;
    memo_dense_[index] = v;
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
    if (index >= memo_dense_.capacity()) grow(memo_dense_.capacity() * (sizeof(Value) + 1) + 64);
    memo_dense_.resize(index + 1);
    memo_set_.resize(index + 1, false);
    memo_dense_[index] = v;
    memo_set_[index] = true;
    return true;
  }
  grow(2 * (sizeof(Value) + sizeof(std::uint64_t)));
  memo_sparse_.emplace(index, v);
  return true;
}

Value Machine::string_value(std::string_view text, std::uint64_t length) {
  Value v{Kind::string, 0, kNoRef, length};
  if (length > limits_.max_kept_string || text.size() != length) {
    v.flags = kNotKept;
    return v;
  }
  if (arena_.size() + text.size() > limits_.max_kept_bytes) {
    strings_exhausted_ = true;
    v.flags = kNotKept;
    return v;
  }
  if (arena_.size() + text.size() > arena_.capacity()) grow(arena_.capacity() + text.size());
  if (strings_.size() == strings_.capacity()) grow(strings_.capacity() * sizeof(StringRef) + 64);
  v.ref = static_cast<std::uint32_t>(strings_.size());
  strings_.push_back({static_cast<std::uint32_t>(arena_.size()), static_cast<std::uint32_t>(text.size())});
  arena_.append(text);
  return v;
}

std::optional<std::string_view> Machine::text(const Value& v) const {
  if (v.kind != Kind::string || (v.flags & kNotKept) || v.ref == kNoRef) return std::nullopt;
  const StringRef r = strings_[v.ref];
  return std::string_view(arena_).substr(r.offset, r.length);
}

Value Machine::tuple_of_top(std::size_t n) {
  Value v{Kind::tuple, 0, kNoRef, n};
  const std::uint64_t bytes = (items_.size() + n) * sizeof(Value);
  if (n > limits_.max_tuple_kept || bytes > limits_.max_kept_bytes) return v;
  if (items_.size() + n > items_.capacity()) grow(items_.capacity() * sizeof(Value) + n * sizeof(Value));
  if (tuples_.size() == tuples_.capacity()) grow(tuples_.capacity() * sizeof(TupleRef) + 64);
  v.ref = static_cast<std::uint32_t>(tuples_.size());
  tuples_.push_back({static_cast<std::uint32_t>(items_.size()), static_cast<std::uint32_t>(n)});
  items_.insert(items_.end(), stack_.end() - static_cast<std::ptrdiff_t>(n), stack_.end());
  return v;
}

}  // namespace tensorgate::detail::pickle
