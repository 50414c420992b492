// HeaderHandler: what a value in the wrong place means (ST2/ST3/ST4), and the ST4
// checks of a tensor entry's fields and sizes.
#include <string>

#include "safetensors/header_handler.hpp"
#include "safetensors/st4_tensor_size.hpp"
#include "common/printable.hpp"

namespace tensorgate::detail {
namespace {

bool negative(boost::json::string_view text) { return !text.empty() && text[0] == '-'; }

// Indexed by HeaderHandler::Kind.
const char* kind_name(int kind) {
  static const char* const kNames[] = {"an object", "an array", "a string", "an integer",
                                       "a number",  "a boolean", "null"};
  return kNames[kind];
}

}  // namespace

void HeaderHandler::wrong_type(Want want, Kind kind) {
  const std::string what = kind_name(static_cast<int>(kind));
  switch (want) {
    case Want::root:
      add(Rule::st2_not_object, "the header is " + what + ", not a JSON object", 0);
      return;
    case Want::metadata:
      add(Rule::st3_not_object, "\"__metadata__\" is " + what + ", not an object");
      if (kind == Kind::null)
        add(Rule::stw_reference_differs, "the reference reader reads a null \"__metadata__\" as absent");
      return;
    case Want::entry:
      add(Rule::st4_entry, "the tensor entry is " + what + ", not an object");
      if (kind == Kind::array)
        add(Rule::stw_reference_differs, "the reference reader accepts an entry written as an array");
      return;
    case Want::meta_value:
      add(Rule::st3_value, "metadata value of " + quoted(table_.str(meta_key_)) + " is " + what +
                               ", not a string", meta_key_pos_);
      return;
    case Want::dtype:
      report_field(kDtypeBit, Rule::st4_dtype, "dtype is " + what + ", not a string");
      if (kind == Kind::object)
        add(Rule::stw_reference_differs, "the reference reader accepts a dtype written as an object");
      return;
    case Want::shape:
      report_field(kShapeBit, Rule::st4_shape, "shape is " + what + ", not an array");
      return;
    case Want::offsets:
      report_field(kOffsetsBit, Rule::st4_data_offsets, "data_offsets is " + what + ", not an array");
      return;
    default:
      return;
  }
}

void HeaderHandler::report_field(std::uint8_t bit, Rule rule, std::string message) {
  if (entry_.bad & bit) return;  // one finding per field is enough
  entry_.bad |= bit;
  add(rule, std::move(message));
}

void HeaderHandler::on_dtype(std::string_view name) {
  const auto dtype = dtype_from_name(name);
  if (!dtype) {
    report_field(kDtypeBit, Rule::st4_dtype, "unknown dtype " + quoted(name));
    return;
  }
  table_.record(entry_.record).dtype = static_cast<std::uint8_t>(*dtype) & 31u;
}

void HeaderHandler::on_dim(Kind kind, string_view text, std::uint64_t v) {
  if (kind == Kind::integer && !negative(text)) {
    dims_.push_back(v);
    return;
  }
  std::string message =
      kind == Kind::integer  ? "dimension " + std::string(text.data(), text.size()) + " is negative"
      : kind == Kind::number ? "dimension " + quoted({text.data(), text.size()}) + " is not an integer"
                             : "shape holds " + std::string(kind_name(static_cast<int>(kind))) +
                                   ", not an integer";
  report_field(kShapeBit, Rule::st4_shape, std::move(message));
}

void HeaderHandler::on_offset(Kind kind, string_view text, std::uint64_t v) {
  if (kind == Kind::integer && !negative(text)) {
    if (entry_.offsets_count < 2) entry_.offsets[entry_.offsets_count] = v;
    ++entry_.offsets_count;
    return;
  }
  std::string message =
      kind == Kind::integer  ? "offset " + std::string(text.data(), text.size()) + " is negative"
      : kind == Kind::number ? "offset " + quoted({text.data(), text.size()}) + " is not an integer"
                             : "data_offsets holds " +
                                   std::string(kind_name(static_cast<int>(kind))) +
                                   ", not an integer";
  report_field(kOffsetsBit, Rule::st4_data_offsets, std::move(message));
}

void HeaderHandler::end_shape() {
  if (entry_.bad & kShapeBit) return;
  table_.set_shape(table_.record(entry_.record), dims_);
}

void HeaderHandler::end_offsets() {
  if (entry_.bad & kOffsetsBit) return;
  if (entry_.offsets_count != 2) {
    report_field(kOffsetsBit, Rule::st4_data_offsets,
                 "data_offsets has " + std::to_string(entry_.offsets_count) + " values, not 2");
    return;
  }
  if (entry_.offsets[0] > entry_.offsets[1]) {
    report_field(kOffsetsBit, Rule::st4_data_offsets,
                 "data_offsets begin " + std::to_string(entry_.offsets[0]) + " is after end " +
                     std::to_string(entry_.offsets[1]));
    return;
  }
  auto& rec = table_.record(entry_.record);
  rec.begin = entry_.offsets[0];
  rec.end = entry_.offsets[1];
}

void HeaderHandler::end_entry() {
  auto& rec = table_.record(entry_.record);
  const std::uint8_t missing = static_cast<std::uint8_t>(~entry_.seen & 7);
  if (missing) {
    std::string list;
    for (auto [bit, field] : {std::pair{kDtypeBit, "dtype"}, std::pair{kShapeBit, "shape"},
                              std::pair{kOffsetsBit, "data_offsets"}})
      if (missing & bit) list += (list.empty() ? "" : ", ") + std::string(field);
    add(Rule::st4_missing_field, "the tensor entry lacks " + list, std::uint64_t{rec.key_pos});
  }
  if ((entry_.seen & kOffsetsBit) && !(entry_.bad & kOffsetsBit))
    rec.flags |= TensorTable::kHasOffsets;
  if (!missing && !entry_.bad) check_size(rec);
  // Raw control characters are not valid JSON, so only an escaped name (in the arena) can hold
  // one; DEL alone may appear raw.
  const std::string_view name = table_.str(rec.name);
  if (!rec.name.in_arena && name.find('\x7f') == std::string_view::npos) {
    in_entry_ = false;
    return;
  }
  for (std::size_t i = 0; i < name.size(); ++i) {
    const auto c = static_cast<unsigned char>(name[i]);
    if (c < 0x20 || c == 0x7f) {
      add(Rule::stw_name_control, "the tensor name holds control character " + quoted(name.substr(i, 1)),
          std::uint64_t{rec.key_pos});
      break;
    }
  }
  in_entry_ = false;
}

// ST4's size rule (st4_tensor_size.hpp): end - begin equals the exact product of the shape times
// the dtype's size. What the reference reader refuses of a size valid here is reported, not followed.
void HeaderHandler::check_size(TensorTable::Record& rec) {
  const auto dtype = static_cast<Dtype>(rec.dtype);
  const TensorSize size = tensor_size(rec.shape(), dtype, rec.end - rec.begin);
  const std::uint64_t at = rec.key_pos;
  switch (size.verdict) {
    case TensorSize::Verdict::count_overflow:
      add(Rule::st4_overflow, "the shape's element count overflows 64 bits", at);
      return;
    case TensorSize::Verdict::sub_byte:
      add(Rule::st4_sub_byte, std::to_string(size.elements) + " elements of " +
                                  std::string(dtype_info(dtype).name) + " are not a whole number of bytes", at);
      return;
    case TensorSize::Verdict::byte_overflow:
      add(Rule::st4_overflow, "the tensor's byte size overflows 64 bits", at);
      return;
    case TensorSize::Verdict::mismatch:
      add(Rule::st4_size_mismatch, "data_offsets span " + std::to_string(rec.end - rec.begin) +
                                       " bytes, the shape and dtype need " + std::to_string(size.bytes), at);
      return;
    case TensorSize::Verdict::fits:
      break;
  }
  rec.flags |= TensorTable::kValid;
  reference_rejects_ = reference_rejects_ || size.fold_overflowed || size.bits_overflowed;
  if (size.fold_overflowed)
    add(Rule::stw_reference_differs, "the reference reader rejects this shape: its product overflows before the zero", at);
  else if (size.bits_overflowed)
    add(Rule::stw_reference_differs, "the reference reader rejects this size: its bit count overflows 64 bits", at);
}

}  // namespace tensorgate::detail
