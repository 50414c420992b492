// The opcodes without an argument: the stack, marks and memo, and the containers, with the
// checks CPython's C unpickler makes (_pickle.c): nothing is popped below the fence (the last
// MARK), opcodes that take "the items since the last MARK" need one, and a memo index must have
// been stored before GET fetches it. Containers are opaque: their items are dropped, except a
// string key with a tensor value (a state dict's entry) and small tuples.
#include <string>

#include "pickle/scanner.hpp"

namespace tensorgate::detail::pickle {

bool Scanner::need(std::size_t n) {
  if (m_.above_fence() >= n) return true;
  malformed(Rule::pk_stack_underflow, at_op() + " needs " + std::to_string(n) + (n == 1 ? " value" : " values") +
                                          " on the stack above the last MARK, there " +
                                          (m_.above_fence() == 1 ? "is 1" : "are " + std::to_string(m_.above_fence())));
  return false;
}

bool Scanner::push(const Value& v) {
  if (m_.push(v)) return true;
  abort_with("pickle-stack", "the stack holds " + std::to_string(limits_.max_stack) +
                                 " values, this scanner's limit (Limits::pickle.max_stack)");
  return false;
}

std::optional<std::size_t> Scanner::marker() {
  if (!m_.has_mark()) {
    malformed(Rule::pk_mark_missing, at_op() + " takes the items since the last MARK, and there is no MARK");
    return std::nullopt;
  }
  return m_.pop_mark();
}

void Scanner::memo_put(std::uint64_t index) {
  if (!need(1)) return;
  if (!m_.memo_put(index, m_.top()))
    abort_with("pickle-memo", "the memo holds " + std::to_string(limits_.max_memo) +
                                  " entries, this scanner's limit (Limits::pickle.max_memo)");
}

void Scanner::memo_get(std::uint64_t index) {
  const Value* v = m_.memo_get(index);
  if (!v) return malformed(Rule::pk_memo_missing, at_op() + " fetches memo index " + std::to_string(index) + ", never stored");
  push(*v);
}

void Scanner::exec_tuple(std::size_t n) {
  if (!need(n)) return;
  const Value t = m_.tuple_of_top(n);
  m_.truncate(m_.size() - n);
  push(t);
}

// The items from `first` to the top are added to the container at `target` (APPENDS,
// SETITEMS, ADDITEMS, and their one-item forms): a write into that object.
void Scanner::container_items(std::size_t target, std::size_t first, bool pairs) {
  const Value container = m_.at(target);
  check_mutation(container, info_->name());
  if (pairs) {
    if ((m_.size() - first) % 2 != 0)
      return malformed(Rule::pk_argument, at_op() + " has an odd number of items (keys and values come in pairs)");
    for (std::size_t i = first; i + 1 < m_.size(); i += 2) {
      note_dict_item(m_.at(i), m_.at(i + 1));
      note_joblib_item(target, m_.at(i), m_.at(i + 1));
    }
  }
  m_.truncate(first);
}

void Scanner::exec(std::uint8_t o) {
  switch (o) {
    case op::MARK:
      if (!m_.mark()) abort_with("pickle-stack", "more MARKs than this scanner's stack limit");
      return;
    case op::STOP: return on_stop();
    case op::POP:
      // CPython pops a MARK when the last mark is at the top, a value otherwise.
      if (m_.top_is_mark()) {
        m_.pop_mark();
      } else if (need(1)) {
        m_.pop();
      }
      return;
    case op::POP_MARK:
      if (const auto k = marker()) m_.truncate(*k);
      return;
    case op::DUP:
      if (need(1)) push(m_.top());
      return;
    case op::NONE: push({Kind::none}); return;
    case op::NEWTRUE: push({Kind::boolean, 0, kNoRef, 1}); return;
    case op::NEWFALSE: push({Kind::boolean, 0, kNoRef, 0}); return;
    case op::EMPTY_DICT: push({Kind::dict}); return;
    case op::EMPTY_LIST: push({Kind::list}); return;
    case op::EMPTY_TUPLE: push({Kind::tuple}); return;
    case op::EMPTY_SET: push({Kind::set}); return;
    case op::APPEND:
      if (need(2)) container_items(m_.size() - 2, m_.size() - 1, false);
      return;
    case op::SETITEM:
      if (need(3)) container_items(m_.size() - 3, m_.size() - 2, true);
      return;
    case op::APPENDS:
    case op::SETITEMS:
    case op::ADDITEMS: {
      const auto k = marker();
      if (!k) return;
      if (*k <= m_.fence()) {  // the container itself must be above the previous mark
        return malformed(Rule::pk_stack_underflow, at_op() + " needs the object to add to below its MARK, and there is none");
      }
      return container_items(*k - 1, *k, o == op::SETITEMS);
    }
    case op::DICT: {
      const auto k = marker();
      if (!k) return;
      if ((m_.size() - *k) % 2 != 0) return malformed(Rule::pk_argument, at_op() + " has an odd number of items");
      for (std::size_t i = *k; i + 1 < m_.size(); i += 2) note_dict_item(m_.at(i), m_.at(i + 1));
      m_.truncate(*k);
      push({Kind::dict});
      return;
    }
    case op::LIST:
    case op::FROZENSET:
      if (const auto k = marker()) {
        m_.truncate(*k);
        push({o == op::LIST ? Kind::list : Kind::set});
      }
      return;
    case op::TUPLE:
      if (const auto k = marker()) {
        const std::size_t n = m_.size() - *k;
        const Value t = m_.tuple_of_top(n);
        m_.truncate(*k);
        push(t);
      }
      return;
    case op::TUPLE1: return exec_tuple(1);
    case op::TUPLE2: return exec_tuple(2);
    case op::TUPLE3: return exec_tuple(3);
    case op::MEMOIZE: return memo_put(m_.memo_count());
    case op::STACK_GLOBAL: return exec_stack_global();
    case op::REDUCE: return exec_reduce();
    case op::BUILD: return exec_build();
    case op::NEWOBJ: return exec_newobj(false);
    case op::NEWOBJ_EX: return exec_newobj(true);
    case op::OBJ: return exec_obj();
    case op::BINPERSID: return exec_binpersid();
    case op::NEXT_BUFFER: push({Kind::buffer}); return;
    case op::READONLY_BUFFER: need(1); return;
    default: return;
  }
}

}  // namespace tensorgate::detail::pickle
