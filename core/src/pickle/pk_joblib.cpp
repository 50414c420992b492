// joblib.dump's arrays. joblib pickles each NumPy array as a NumpyArrayWrapper (NEWOBJ, then
// BUILD with a state dict: subclass, shape, order, dtype, allow_mmap and, from joblib 1.2,
// numpy_array_alignment_bytes) and then writes the array itself straight into the file, outside
// the opcodes: a pad byte N and N alignment bytes when the state names an alignment, then the
// raw bytes, prod(shape) x itemsize; an object array's own pickle instead (protocol 2, ended by
// its STOP). joblib's unpickler reads them right after any BUILD whose result is a wrapper, from
// the file, which is past the current FRAME: joblib commits the frame first. So here, after
// such a BUILD at a frame's end, the scanner counts the bytes (an owner that seeks may skip
// them) or scans the inner pickle with a scanner of its own, and the array takes the wrapper's
// place on the stack, named in the summary by the dict key it is stored under. What cannot be
// placed exactly (no shape of integers, a dtype it does not resolve, a structured or void dtype
// whose array may be raw bytes or a pickle, the BUILD inside a frame) is PK.joblib-array and
// stops the scan: bytes read as opcodes could hide a payload as "array bytes".
#include <charconv>
#include <string>

#include "common/saturating.hpp"
#include "pickle/scanner.hpp"

namespace tensorgate::detail::pickle {
namespace {

// A dtype value (Kind::object made by numpy.dtype): its kind letter in the top byte of `num` and
// its itemsize below (at most 4 x 10^11: a spec is at most 12 characters), and these flags.
constexpr std::uint8_t kDtype = 16;        // numpy.dtype(spec) with a spec this file resolved
constexpr std::uint8_t kObjectDtype = 32;  // 'O': the array is a pickle of its own
constexpr std::uint8_t kVoidDtype = 64;    // 'V': structured or void, raw bytes or a pickle

constexpr unsigned kKindShift = 56;
constexpr std::uint64_t kSizeMask = (std::uint64_t{1} << kKindShift) - 1;

struct Spec {
  std::uint64_t itemsize;
  std::uint8_t flags;
};

// numpy's dtype reduce spec: a kind letter and a byte count ('f4', 'i8', 'b1', 'c16', 'O8',
// 'M8'), for strings a length ('S3'; 'U5' is 5 UCS-4 characters), for void its size ('V12').
std::optional<Spec> parse_spec(std::string_view s) {
  if (s.empty() || s.size() > 12) return std::nullopt;
  const char kind = s[0];
  std::uint64_t n = 0;
  const auto [end, ec] = std::from_chars(s.data() + 1, s.data() + s.size(), n);
  if (ec != std::errc{} || end != s.data() + s.size()) return std::nullopt;
  switch (kind) {
    case 'b':
      if (n == 1) return Spec{1, 0};
      return std::nullopt;
    case 'i':
    case 'u':
      if (n == 1 || n == 2 || n == 4 || n == 8) return Spec{n, 0};
      return std::nullopt;
    case 'f':
      if (n == 2 || n == 4 || n == 8 || n == 12 || n == 16) return Spec{n, 0};  // 12, 16: long double
      return std::nullopt;
    case 'c':
      if (n == 8 || n == 16 || n == 24 || n == 32) return Spec{n, 0};
      return std::nullopt;
    case 'M':
    case 'm':
      if (n == 8) return Spec{8, 0};
      return std::nullopt;
    case 'S': return Spec{n, 0};
    case 'U': return Spec{4 * n, 0};
    case 'V': return Spec{n, kVoidDtype};
    case 'O':
      if (n == 8) return Spec{8, kObjectDtype};
      return std::nullopt;
    default: return std::nullopt;
  }
}

// The summary's name of a resolved dtype, as safetensors names them where it has one (F32,
// I64, BOOL, C64), numpy's spec otherwise (S3, U5, M8, f16).
std::string dtype_name(const Value& dtype) {
  const char kind = static_cast<char>(dtype.num >> kKindShift);
  const std::uint64_t size = dtype.num & kSizeMask;
  const std::string bits = std::to_string(8 * size);
  switch (kind) {
    case 'b': return "BOOL";
    case 'i': return "I" + bits;
    case 'u': return "U" + bits;
    case 'f': return size <= 8 ? "F" + bits : "f" + std::to_string(size);
    case 'c': return "C" + bits;
    case 'U': return "U" + std::to_string(size / 4);
    default: return std::string(1, kind) + std::to_string(size);
  }
}

}  // namespace

// numpy.dtype(spec, align, copy): the spec decides the itemsize (its BUILD state adds the byte
// order and, for structured dtypes, fields, which change neither the size nor, for the kinds
// resolved here, whether it holds objects).
Value Scanner::dtype_value(const Value& callable, const Value& args) {
  Value v{Kind::object, 0, callable.ref, 0};
  const Value* items = m_.tuple_items(args);
  if (args.kind != Kind::tuple || !items || m_.tuple_size(args) < 1) return v;
  const auto text = m_.text(items[0]);
  if (!text) return v;
  const auto spec = parse_spec(*text);
  if (!spec) return v;
  v.flags = static_cast<std::uint8_t>(kDtype | spec->flags);
  v.num = (std::uint64_t{static_cast<unsigned char>((*text)[0])} << kKindShift) | spec->itemsize;
  return v;
}

// A dict's item, set while the dict is on the stack at `target`: the keys of a wrapper's state.
void Scanner::note_joblib_item(std::size_t target, const Value& key, const Value& value) {
  if (!joblib_) return;  // a zip's or tar's pickle: no wrapper is followed, no state kept
  const auto name = m_.text(key);
  if (!name || (*name != "shape" && *name != "dtype" && *name != "numpy_array_alignment_bytes")) return;
  Value& dict = m_.at(target);
  if (dict.kind != Kind::dict) return;
  if (dict.num == 0 || dict.num != wrapper_state_.serial) {
    wrapper_state_ = JoblibState{};
    wrapper_state_.serial = ++joblib_serial_;
    dict.num = wrapper_state_.serial;
  }
  JoblibState& st = wrapper_state_;
  if (*name == "shape") {
    st.has_shape = true;
    st.shape.clear();
    const Value* dims = m_.tuple_items(value);
    const std::size_t rank = m_.tuple_size(value);
    st.shape_ok = value.kind == Kind::tuple && (rank == 0 || dims) && (rank > 0 || value.ref != kNoRef || value.num == 0);
    for (std::size_t i = 0; st.shape_ok && i < rank; ++i) {
      if (dims[i].kind != Kind::integer || (dims[i].flags & kBig) || dims[i].num > INT64_MAX) st.shape_ok = false;
      else st.shape.push_back(dims[i].num);
    }
  } else if (*name == "dtype") {
    st.has_dtype = true;
    st.dtype = value;
  } else if (value.kind == Kind::integer && !(value.flags & kBig)) {
    st.alignment = value.num;
  } else {
    st.alignment.reset();  // None: no pad
  }
}

namespace {

bool wrapper_global(const PickleGlobal& g) { return g.module == "joblib.numpy_pickle" && g.name == "NumpyArrayWrapper"; }

}  // namespace

bool Scanner::is_array_wrapper(const Value& inst) const {
  // Not in a legacy torch.save stream, which torch.load reads, as it reads a zip's pickles.
  return joblib_ && !legacy_ && inst.kind == Kind::object && inst.ref != kNoRef && wrapper_global(globals_[inst.ref]);
}

// The wrapper class among a call's kept arguments: the global index, or nothing.
std::optional<std::uint32_t> Scanner::wrapper_class_in(const Value& args) const {
  if (!joblib_ || args.kind != Kind::tuple) return std::nullopt;
  const Value* items = m_.tuple_items(args);
  for (std::size_t i = 0; items && i < m_.tuple_size(args); ++i) {
    if (items[i].kind == Kind::global && items[i].ref != kNoRef && wrapper_global(globals_[items[i].ref])) return items[i].ref;
  }
  return std::nullopt;
}

// After the wrapper's BUILD (the wrapper is on the stack's top; `state` was its state).
void Scanner::start_joblib_array(const Value& state) {
  const JoblibState& st = wrapper_state_;
  const std::string at = "the joblib array wrapper built at byte " + std::to_string(offset_of(op_pos_));
  if (frame_end_ && pos_ < *frame_end_) {
    return malformed(Rule::pk_joblib_array, at + " is followed by " + std::to_string(*frame_end_ - pos_) +
                                                " more bytes of its FRAME: joblib reads the array from after the frame");
  }
  if (state.kind != Kind::dict || state.num == 0 || state.num != st.serial || !st.has_shape || !st.has_dtype) {
    return malformed(Rule::pk_joblib_array, at + " has no state dict with a shape and a dtype");
  }
  if (!st.shape_ok) return malformed(Rule::pk_joblib_array, at + " has a shape that is no tuple of integers");
  if (!(st.dtype.flags & kDtype) || st.dtype.kind != Kind::object) {
    return malformed(Rule::pk_joblib_array, at + " has a dtype that is no numpy.dtype of a kind the scanner resolves");
  }
  if (st.dtype.flags & kVoidDtype) {
    return malformed(Rule::pk_joblib_array,
                     at + " has a structured or void dtype: whether its array is raw bytes or a pickle depends on "
                          "its fields, which the scanner does not resolve");
  }
  std::uint64_t elements = 1;
  for (const std::uint64_t d : st.shape) {
    if (d != 0 && elements > UINT64_MAX / d) return malformed(Rule::pk_joblib_array, at + " has a shape whose size overflows");
    elements *= d;
  }
  const std::uint64_t itemsize = st.dtype.num & kSizeMask;
  if (itemsize != 0 && elements > static_cast<std::uint64_t>(INT64_MAX) / itemsize)
    return malformed(Rule::pk_joblib_array, at + " has an array of more bytes than a file holds");
  ++joblib_arrays_;
  // The array in the wrapper's place: a tensor of the summary when a dict key names it.
  array_value_ = Value{Kind::object};
  if (!(st.dtype.flags & kObjectDtype) && tensor_infos_.size() < limits_.max_tensors && room_for_one(tensor_infos_)) {
    TensorInfo t;
    t.dtype = dtype_name(st.dtype);
    t.dtype_bytes = static_cast<std::uint32_t>(std::min<std::uint64_t>(itemsize, UINT32_MAX));
    t.shape = st.shape;
    t.contiguous = true;
    summary_memory_ += t.shape.size() * 8;
    array_value_ = Value{Kind::tensor, 0, static_cast<std::uint32_t>(tensor_infos_.size()), 0};
    tensor_infos_.push_back(std::move(t));
  }
  if (st.dtype.flags & kObjectDtype) {
    // An object array: its own pickle, by a scanner that does not follow wrappers (joblib reads
    // it with pickle.load), whose findings are this file's.
    inner_ = std::make_unique<Scanner>(
        limits_, ScanSite{site_.findings, offset_of(pos_), site_.exact, site_.where, nullptr, site_.policy}, budget_);
    state_ = St::joblib_inner;
    return;
  }
  array_left_ = elements * itemsize;
  pad_left_ = 0;
  state_ = st.alignment ? St::joblib_pad : St::joblib_bytes;
  if (state_ == St::joblib_bytes && array_left_ == 0) end_joblib_array();
}

std::size_t Scanner::take_joblib(const unsigned char* p, std::size_t n) {
  switch (state_) {
    case St::joblib_pad:  // how many alignment bytes follow: joblib reads and drops that many
      ++pos_;
      pad_left_ = p[0];
      state_ = pad_left_ ? St::joblib_padding : St::joblib_bytes;
      if (state_ == St::joblib_bytes && array_left_ == 0) end_joblib_array();
      return 1;
    case St::joblib_padding: {
      const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(n, pad_left_));
      pos_ += take;
      pad_left_ -= take;
      if (pad_left_ == 0) {
        state_ = St::joblib_bytes;
        if (array_left_ == 0) end_joblib_array();
      }
      return take;
    }
    case St::joblib_bytes: {
      const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(n, array_left_));
      pos_ += take;
      array_bytes_done(take);
      return take;
    }
    default: break;
  }
  // St::joblib_inner
  const std::size_t used = inner_->feed_to_stop(p, n);
  pos_ += used;
  if (inner_->stopped()) {
    state_ = St::stopped;  // the inner pickle broke: where the outer one goes on is unknown
    inner_.reset();
  } else if (inner_->pickles_ended() > 0) {
    inner_.reset();
    end_joblib_array();
  }
  return used;
}

// `n` of the array's raw bytes counted (read or skipped).
void Scanner::array_bytes_done(std::uint64_t n) {
  array_left_ -= n;
  joblib_array_bytes_ = saturating_add(joblib_array_bytes_, n);
  if (array_left_ == 0) end_joblib_array();
}

void Scanner::end_joblib_array() {
  state_ = St::opcode;
  if (m_.size() > 0) m_.top() = array_value_;
}

}  // namespace tensorgate::detail::pickle
