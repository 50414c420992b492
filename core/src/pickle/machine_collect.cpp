// Collecting the kept strings and tuples that no value refers to any more.
//
// Why: CPython's pickler writes every string as it meets it, and a pickle of many small objects
// is mostly strings that are pushed, put into a dict or a list, and dropped. Kept forever, they
// filled Limits::pickle.max_kept_bytes after ~64 MB of such strings, and every STACK_GLOBAL
// after that aborted the scan (no verdict on a large, ordinary data pickle). What a later
// opcode can still reach is what the stack and the memo hold, and the items of the tuples they
// hold. A tuple is made of values already on the stack, so its items refer only to older
// strings and tuples: one pass from the newest tuple down finds every live one, without
// recursion. Live runs then slide toward the start of their pools in order (never past a run
// not yet moved), and every reference is renumbered.
//
// Cost: a collection reads every root (16 bytes a stack slot or memo entry) and moves the live
// runs. It runs only once the pools have grown by max(1 MiB, what was live, 4 bytes per root)
// since the last one, so its work is paid for by at least as many bytes of input.
#include <algorithm>
#include <cstring>

#include "pickle/machine.hpp"

namespace tensorgate::detail::pickle {
namespace {

constexpr std::uint64_t kMinGrowth = 1 << 20;
constexpr std::uint32_t kLive = kNoRef - 1;  // marked, not yet renumbered

}  // namespace

template <typename F>
void Machine::for_each_root(F f) {
  for (Value& v : stack_) f(v);
  for (std::size_t i = 0; i < memo_dense_.size(); ++i) f(memo_dense_[i]);
  for (auto& entry : memo_sparse_) f(entry.second);
}

void Machine::schedule_collect() {
  const std::uint64_t live = kept_bytes();
  const std::uint64_t roots = stack_.size() + memo_dense_.size() + memo_sparse_.size();
  // One opcode adds at most one string or one tuple (and a block end skipped for it): the pools
  // may pass the point of collection by that much before the next opcode collects.
  const std::uint64_t slack = 2 * (limits_.max_kept_string + limits_.max_tuple_kept * sizeof(Value));
  const std::uint64_t cap = limits_.max_kept_bytes > slack ? limits_.max_kept_bytes - slack : 0;
  const std::uint64_t want = std::max({2 * live, live + kMinGrowth, 4 * roots});
  // Live data near the bound: collecting again soon would free little; the bound refuses more.
  next_collect_ = live >= cap ? live + kMinGrowth : std::min(want, cap);
}

void Machine::collect() {
  std::vector<std::uint32_t> strings(strings_.size(), kNoRef);
  std::vector<std::uint32_t> tuples(tuples_.size(), kNoRef);
  auto mark = [&](const Value& v) {
    if (v.ref == kNoRef) return;
    if (v.kind == Kind::string) strings[v.ref] = kLive;
    else if (v.kind == Kind::tuple) tuples[v.ref] = kLive;
  };
  for_each_root(mark);
  for (std::size_t t = tuples.size(); t-- > 0;) {
    if (tuples[t] != kLive) continue;
    const Value* items = items_.at(tuples_[t].place);
    for (std::uint32_t i = 0; i < tuples_[t].count; ++i) mark(items[i]);
  }
  collect_strings(strings);
  collect_tuples(tuples, strings);
  for_each_root([&](Value& v) {
    if (v.ref == kNoRef) return;
    if (v.kind == Kind::string) v.ref = strings[v.ref];
    else if (v.kind == Kind::tuple) v.ref = tuples[v.ref];
  });
  ++collections_;
  schedule_collect();
}

// Live strings slide down in order; `renumber` maps each old number to its new one.
void Machine::collect_strings(std::vector<std::uint32_t>& renumber) {
  std::uint64_t cursor = 0;
  std::uint32_t kept = 0;
  for (std::size_t i = 0; i < renumber.size(); ++i) {
    if (renumber[i] != kLive) continue;
    const StringRef r = strings_[i];
    const std::uint64_t place = decltype(arena_)::place_after(cursor, r.length);
    if (place != r.place && r.length) std::memmove(arena_.at(place), arena_.at(r.place), r.length);
    strings_[kept] = {place, r.length};
    renumber[i] = kept++;
    cursor = decltype(arena_)::end_of(place, r.length);
  }
  strings_.resize(kept, {});
  arena_.set_used(cursor);
}

// Live tuples slide down likewise, and their items are renumbered: they refer only to older
// tuples, whose new numbers are known by then.
void Machine::collect_tuples(std::vector<std::uint32_t>& renumber, const std::vector<std::uint32_t>& strings) {
  std::uint64_t cursor = 0;
  std::uint32_t kept = 0;
  for (std::size_t t = 0; t < renumber.size(); ++t) {
    if (renumber[t] != kLive) continue;
    const TupleRef r = tuples_[t];
    const std::uint64_t place = decltype(items_)::place_after(cursor, r.count);
    Value* items = items_.at(place);
    if (place != r.place && r.count) std::memmove(items, items_.at(r.place), r.count * sizeof(Value));
    for (std::uint32_t i = 0; i < r.count; ++i) {
      Value& v = items[i];
      if (v.ref == kNoRef) continue;
      if (v.kind == Kind::string) v.ref = strings[v.ref];
      else if (v.kind == Kind::tuple) v.ref = renumber[v.ref];
    }
    tuples_[kept] = {place, r.count};
    renumber[t] = kept++;
    cursor = decltype(items_)::end_of(place, r.count);
  }
  tuples_.resize(kept, {});
  items_.set_used(cursor);
}

}  // namespace tensorgate::detail::pickle
