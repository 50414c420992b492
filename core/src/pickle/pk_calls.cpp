// What is called: REDUCE, NEWOBJ, NEWOBJ_EX, OBJ (INST is in pk_globals.cpp) call a value,
// BUILD calls __setstate__ of its target, BINPERSID calls the loader's persistent_load. Calls
// are counted against the global that is called (or that made the object BUILD sets up);
// BUILD and the container opcodes applied to a global itself are PK.global-mutation. The
// calls torch.save's state dicts are made of are followed: persistent ids name storages,
// torch._utils._rebuild_tensor_v2 and friends make tensors, and a dict entry with a string key
// and a tensor value names a tensor of the summary.
#include <string>

#include "common/printable.hpp"
#include "common/saturating.hpp"
#include "pickle/scanner.hpp"
#include "pickle/torch_types.hpp"

namespace tensorgate::detail::pickle {
void Scanner::check_mutation(const Value& target, std::string_view what) {
  if (target.kind != Kind::global) return;
  const std::string name = target.ref != kNoRef ? quoted(globals_[target.ref].module + "." + globals_[target.ref].name, 120)
                                                : std::string("an unresolved global");
  site_.findings->add(Rule::pk_global_mutation,
                      site_.where + std::string(what) + " at byte " + std::to_string(offset_of(op_pos_)) +
                          " writes into " + name + " itself, not into an object a call made",
                      offset_of(op_pos_));
}

void Scanner::exec_reduce() {
  if (!need(2)) return;
  const Value args = m_.pop();
  const Value callable = m_.pop();
  count_call(callable);
  push(call_result(callable, args));
}

void Scanner::exec_newobj(bool ex) {
  if (!need(ex ? 3 : 2)) return;
  if (ex) m_.pop();  // kwargs
  const Value args = m_.pop();
  const Value cls = m_.pop();
  count_call(cls);
  push(call_result(cls, args));
}

void Scanner::exec_obj() {
  const auto k = marker();
  if (!k) return;
  if (m_.size() - *k < 1)
    return malformed(Rule::pk_stack_underflow, at_op() + " needs the class to call after its MARK, and there is none");
  const Value cls = m_.at(*k);
  const Value args = m_.tuple_of_top(m_.size() - *k - 1);
  m_.truncate(*k);
  count_call(cls);
  push(call_result(cls, args));
}

void Scanner::exec_build() {
  if (!need(2)) return;
  const Value state = m_.pop();
  const Value& inst = m_.top();
  check_mutation(inst, "BUILD");
  // Its __setstate__: counted against the global whose call made it.
  if ((inst.kind == Kind::object || inst.kind == Kind::dict) && inst.ref != kNoRef) ++globals_[inst.ref].calls;
  if (is_array_wrapper(inst)) start_joblib_array(state);  // joblib writes the array's bytes next
}

// ('storage', torch.<Type>Storage, key, location, numel[, view metadata]): what torch.save's
// persistent_id writes for a storage, in the zip archive and in the legacy stream.
void Scanner::exec_binpersid() {
  if (!need(1)) return;
  const Value pid = m_.pop();
  Value result{Kind::persistent};
  const Value* items = m_.tuple_items(pid);
  if (pid.kind == Kind::tuple && items && m_.tuple_size(pid) >= 5 && m_.text(items[0]) == "storage" &&
      items[1].kind == Kind::global && items[1].ref != kNoRef && m_.text(items[2]) && items[4].kind == Kind::integer) {
    const std::string key(*m_.text(items[2]));
    const auto dtype = torch_storage_dtype(globals_[items[1].ref].name);
    if (const auto it = storage_index_.find(key); it != storage_index_.end()) {
      result.ref = it->second;
    } else if (storages_.size() < limits_.max_storages) {
      if (!room_for_one(storages_) || !room_for_one(storage_elem_)) return;
      result.ref = static_cast<std::uint32_t>(storages_.size());
      const std::uint64_t numel = items[4].num;
      const std::uint64_t bytes = dtype && !(items[4].flags & kBig) && numel <= UINT64_MAX / dtype->bytes ? numel * dtype->bytes : 0;
      storages_.push_back(PickleStorage{key, dtype ? std::string(dtype->name) : std::string("unknown"), numel,
                                        std::string(m_.text(items[3]).value_or("")), bytes});
      storage_elem_.push_back(dtype ? dtype->bytes : 0);
      storage_index_.emplace(key, result.ref);
      summary_memory_ += key.size() * 2 + 48;  // the key, again in storage_index_
    } else {
      ++storages_dropped_;
    }
  }
  push(result);
}

Value Scanner::call_result(const Value& callable, const Value& args) {
  const Value object{Kind::object, 0, callable.kind == Kind::global ? callable.ref : kNoRef, 0};
  // A factory given joblib's wrapper class (copyreg.__newobj__, copyreg._reconstructor) makes a
  // wrapper as far as joblib's isinstance check goes: its array's bytes follow its BUILD too.
  if (const auto wrapper = wrapper_class_in(args)) return Value{Kind::object, 0, *wrapper, 0};
  if (callable.kind != Kind::global || callable.ref == kNoRef) return object;
  const PickleGlobal& g = globals_[callable.ref];
  if (g.verdict != GlobalVerdict::allowed) return object;
  const Value* items = m_.tuple_items(args);
  const std::size_t n = args.kind == Kind::tuple ? m_.tuple_size(args) : 0;
  if (g.module == "torch._utils") {
    if (g.name == "_rebuild_parameter" || g.name == "_rebuild_parameter_with_state")
      return n >= 1 && items[0].kind == Kind::tensor ? items[0] : object;
    if (g.name.starts_with("_rebuild_tensor") || g.name == "_rebuild_qtensor") return rebuild_tensor(g.name, args);
    return object;
  }
  if (g.module == "torch._tensor" && g.name == "_rebuild_from_type_v2") {
    // (func, new_type, args, state): the tensor func(*args) makes, as a subclass.
    if (n >= 3 && items[0].kind == Kind::global && items[0].ref != kNoRef && items[2].kind == Kind::tuple) {
      const PickleGlobal& f = globals_[items[0].ref];
      if (f.verdict == GlobalVerdict::allowed && f.module == "torch._utils" && f.name.starts_with("_rebuild_tensor"))
        return rebuild_tensor(f.name, items[2]);
    }
    return object;
  }
  if (g.module == "collections") return {Kind::dict, 0, callable.ref, 0};  // OrderedDict, Counter
  if (g.module == "torch" && g.name == "Size") return n >= 1 && items[0].kind == Kind::tuple ? items[0] : object;
  if (g.module == "builtins" && (g.name == "set" || g.name == "frozenset")) return {Kind::set};
  if (g.module == "numpy" && g.name == "dtype") return dtype_value(callable, args);
  return object;
}

// _rebuild_tensor(storage, storage_offset, size, stride), _v2 (..., requires_grad,
// backward_hooks[, metadata]), _v3 (..., requires_grad, backward_hooks, dtype[, metadata]),
// _rebuild_qtensor(storage, storage_offset, size, ...).
// Whether `stride` (a kept tuple) is the row-major stride of `shape`: the last dimension 1,
// each other the product of those after it. A dimension of size 1 may have any stride (torch
// gives it any), and a tensor without elements is one run of nothing.
bool Scanner::row_major(const std::vector<std::uint64_t>& shape, const Value& stride) const {
  const Value* s = m_.tuple_items(stride);
  if (m_.tuple_size(stride) != shape.size() || (!s && !shape.empty())) return false;
  std::uint64_t want = 1;
  for (std::size_t i = shape.size(); i-- > 0;) {
    if (shape[i] == 0) return true;
    if (shape[i] != 1 && (s[i].kind != Kind::integer || (s[i].flags & kBig) || s[i].num != want)) return false;
    want = saturating_mul(want, shape[i]);
  }
  return true;
}

Value Scanner::rebuild_tensor(std::string_view fn, const Value& args) {
  const Value object{Kind::object};
  const Value* items = m_.tuple_items(args);
  const std::size_t n = m_.tuple_size(args);
  if (args.kind != Kind::tuple || !items || n < 4) return object;
  TensorInfo t;
  if (items[0].kind == Kind::persistent && items[0].ref != kNoRef) {
    t.storage = items[0].ref;
    t.dtype = storages_[t.storage].dtype;
    t.dtype_bytes = storage_elem_[t.storage];
  }
  if (fn == "_rebuild_tensor_v3" && n >= 7 && items[6].kind == Kind::global && items[6].ref != kNoRef) {
    if (const auto d = torch_dtype_object(globals_[items[6].ref].name)) {
      t.dtype = d->name;
      t.dtype_bytes = d->bytes;
    }
  }
  if (items[1].kind == Kind::integer) t.offset = items[1].num;
  if (items[2].kind != Kind::tuple) return object;
  const Value* dims = m_.tuple_items(items[2]);
  const std::size_t rank = m_.tuple_size(items[2]);
  if (rank && !dims) return object;  // more dimensions than a kept tuple holds
  for (std::size_t i = 0; i < rank; ++i) {
    if (dims[i].kind != Kind::integer || (dims[i].flags & kBig)) return object;
    t.shape.push_back(dims[i].num);
  }
  if (tensor_infos_.size() >= limits_.max_tensors) {
    // Past the list's bound only its size is kept, in the value itself (flags: the element
    // size, at most 16; num: the parameters): the totals still count it.
    std::uint64_t parameters = 1;
    for (const std::uint64_t d : t.shape) parameters = saturating_mul(parameters, d);
    return Value{Kind::tensor, static_cast<std::uint8_t>(t.dtype_bytes), kNoRef, parameters};
  }
  t.contiguous = row_major(t.shape, items[3]);
  if (t.dtype.empty()) t.dtype = "unknown";
  const Value v{Kind::tensor, 0, static_cast<std::uint32_t>(tensor_infos_.size()), 0};
  if (!room_for_one(tensor_infos_)) return object;
  summary_memory_ += rank * 8;
  tensor_infos_.push_back(std::move(t));
  return v;
}

void Scanner::note_dict_item(const Value& key, const Value& value) {
  if (value.kind != Kind::tensor) return;
  const auto name = m_.text(key);
  if (!name) return;
  if (value.ref == kNoRef) {  // past the bound of tensors rebuilt (rebuild_tensor)
    tensor_parameters_ = saturating_add(tensor_parameters_, value.num);
    tensor_bytes_ = saturating_add(tensor_bytes_, saturating_mul(value.num, value.flags));
    ++tensors_dropped_;
    return;
  }
  const TensorInfo& t = tensor_infos_[value.ref];
  std::uint64_t parameters = 1;
  for (const std::uint64_t d : t.shape) parameters = saturating_mul(parameters, d);
  const std::uint64_t bytes = saturating_mul(parameters, t.dtype_bytes);
  // The totals count every tensor, the ones past the list's bound too.
  tensor_parameters_ = saturating_add(tensor_parameters_, parameters);
  tensor_bytes_ = saturating_add(tensor_bytes_, bytes);
  if (tensors_.size() >= limits_.max_tensors) {
    ++tensors_dropped_;
    return;
  }
  PickleTensor pt{std::string(*name), t.dtype, t.shape, parameters, bytes,
                  t.storage != kNoRef ? storages_[t.storage].key : std::string(), t.offset, t.contiguous};
  if (!room_for_one(tensors_)) return;
  summary_memory_ += name->size() + t.shape.size() * 8 + 32;
  tensors_.push_back(std::move(pt));
}

}  // namespace tensorgate::detail::pickle
