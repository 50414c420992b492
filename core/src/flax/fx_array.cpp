// An extension leaf's own msgpack (FX.array, FX.dtype): flax's _ndarray_to_bytes packs an
// array as msgpack of (shape, dtype name, buffer) inside extension 1 (3 for a NumPy scalar), and
// a Python complex as (real, imag) inside extension 2. The header is read in place, bounded by
// Limits::flax.max_ext_header_bytes; the buffer is judged by its length and skipped. Whatever is
// wrong inside one extension is one finding, and the reader goes on after its last byte.
#include <algorithm>

#include "common/printable.hpp"
#include "flax/fx_dtype.hpp"
#include "flax/validator.hpp"

namespace tensorgate::detail::flax {
namespace {

std::string num(std::uint64_t v) { return std::to_string(v); }

std::string shape_text(const std::vector<std::uint64_t>& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + num(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

}  // namespace

void FlaxValidator::open_ext(const Item& it) {
  const int type = it.ext_type;
  if (type != 1 && type != 2 && type != 3) return start_payload(it, Payload::foreign_ext);
  // Open before its frame is pushed: an extension past FX.depth that the file cuts short is the
  // truncation alone, as with the size known.
  ext_ = OpenExt{};
  ext_.active = true;
  ext_.item = it;
  ext_.data_start = pos_;
  ext_.end = pos_ + it.value;
  ext_.mark = findings_.mark();
  push(Role::ext, it);
}

void FlaxValidator::on_ext_item(const Item& it) {
  if (!ext_.has_buffer && pos_ - ext_.data_start > limits_.flax.max_ext_header_bytes)
    return abandon("its header passes Limits::flax.max_ext_header_bytes (" + num(limits_.flax.max_ext_header_bytes) +
                   " bytes)");
  const bool sized = it.kind == ItemKind::str || it.kind == ItemKind::bin || it.kind == ItemKind::ext;
  if (sized && it.value > ext_.end - pos_)
    return abandon(std::string(kind_name(it.kind)) + " of " + num(it.value) + " bytes at byte " + num(it.offset) +
                   " runs past its end");
  const Frame& f = stack_.back();
  switch (f.role) {
    case Role::ext:
      if (ext_.item.ext_type == 2) {
        if (it.kind == ItemKind::array && it.value == 2) return void(push(Role::complex_pair, it));
        return abandon(std::string("a complex number's msgpack is ") + kind_name(it.kind) + ", not (real, imag)");
      }
      if (it.kind == ItemKind::array && it.value == 3) return void(push(Role::nd_tuple, it));
      return abandon(std::string("its msgpack is ") + kind_name(it.kind) +
                     (it.kind == ItemKind::array ? " of " + num(it.value) + " items" : std::string()) +
                     ", not (shape, dtype, buffer)");
    case Role::nd_tuple:
      switch (3 - f.left) {
        case 0:
          if (it.kind != ItemKind::array) return abandon(std::string("its shape is ") + kind_name(it.kind) + ", not a list of ints");
          if (it.value > kMaxDims) return abandon("its shape has " + num(it.value) + " dimensions, past NumPy's 64");
          return void(push(Role::nd_shape, it));
        case 1:
          if (it.kind != ItemKind::str && it.kind != ItemKind::bin)
            return abandon(std::string("its dtype is ") + kind_name(it.kind) + ", not a name");
          if (it.value > limits_.flax.max_ext_header_bytes - std::min(pos_ - ext_.data_start, std::uint64_t{limits_.flax.max_ext_header_bytes}))
            return abandon("its dtype name of " + num(it.value) + " bytes passes Limits::flax.max_ext_header_bytes (" +
                           num(limits_.flax.max_ext_header_bytes) + " bytes)");
          return start_payload(it, Payload::dtype);
        default:
          if (it.kind != ItemKind::str && it.kind != ItemKind::bin)
            return abandon(std::string("its buffer is ") + kind_name(it.kind) + ", not bytes");
          return on_buffer(it);
      }
    case Role::nd_shape:
      if (!is_int(it)) return abandon(std::string("a dimension of its shape is ") + kind_name(it.kind) + ", not an int");
      if (is_negative(it)) return abandon("its shape has a negative dimension, " + scalar_text(it));
      ext_.shape.push_back(it.value);
      return item_done();
    case Role::complex_pair:
      if (!is_number(it)) return abandon(std::string("a part of a complex number is ") + kind_name(it.kind) + ", not a number");
      return item_done();
    default: return abandon("its msgpack is not what flax writes");
  }
}

void FlaxValidator::on_dtype_text() {
  ext_.has_dtype = true;
  ext_.dtype = payload_item_.value <= keep_cap_ ? text_ : text_ + "...";
  item_done();
}

// The buffer's length decides: np.frombuffer of the dtype, reshaped to the shape.
void FlaxValidator::on_buffer(const Item& it) {
  ext_.has_buffer = true;
  ext_.buffer_offset = pos_;
  ext_.buffer_bytes = it.value;
  const Dtype* d = dtype_named(ext_.dtype);
  const auto elements = elements_of(ext_.shape);
  const char* what = ext_.item.ext_type == 3 ? "the NumPy scalar" : "the array";
  if (!d) {
    findings_.add(Rule::fx_dtype, std::string(what) + " at byte " + num(ext_.item.offset) + " has dtype " + quoted(ext_.dtype) +
                                      ": " + dtype_refusal(ext_.dtype),
                  ext_.item.offset, path_);
  } else if (!elements || *elements > UINT64_MAX / d->itemsize || *elements * d->itemsize != it.value) {
    findings_.add(Rule::fx_array,
                  std::string(what) + " at byte " + num(ext_.item.offset) + " has a buffer of " + num(it.value) +
                      " bytes; its shape " + shape_text(ext_.shape) + " of " + std::string(d->name) + " needs " +
                      (elements && *elements <= UINT64_MAX / d->itemsize ? num(*elements * d->itemsize) : "more than 2^64"),
                  ext_.item.offset, path_);
  } else {
    ext_.judged_ok = true;
  }
  start_payload(it, Payload::buffer);
}

bool FlaxValidator::close_ext() {
  if (pos_ < ext_.end) {
    abandon(num(ext_.end - pos_) + " bytes follow its value inside it: msgpack's unpacker refuses extra data");
    return false;
  }
  ext_.active = false;
  stack_.pop_back();
  if (ext_.item.ext_type != 1) {
    ++summary_.scalars;
    return true;
  }
  const auto elements = elements_of(ext_.shape);
  const Dtype* d = dtype_named(ext_.dtype);
  record(FlaxArray{path_, ext_.dtype, std::move(ext_.shape), ext_.buffer_offset, ext_.buffer_bytes, 0}, d,
         ext_.judged_ok, ext_.judged_ok && elements ? *elements : 0);
  return st_ != St::stopped;
}

void FlaxValidator::abandon(std::string why) {
  findings_.add(Rule::fx_array,
                "the extension at byte " + num(ext_.item.offset) + " (type " + std::to_string(int{ext_.item.ext_type}) +
                    ", " + num(ext_.item.value) + " bytes): " + why,
                ext_.item.offset, path_);
  while (!stack_.empty() && stack_.back().role != Role::ext) stack_.pop_back();
  if (ext_.item.ext_type == 1 && stack_.size() >= 2 && stack_[stack_.size() - 2].role == Role::map)
    stack_[stack_.size() - 2].tally.direct.mixed = true;
  ext_.abandoned = true;
  start_payload(ext_.item, Payload::ext_rest);
}

}  // namespace tensorgate::detail::flax
