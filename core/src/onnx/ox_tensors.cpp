// Tensors (OX.data-type, OX.dims, OX.tensor-size, OX.external-location, OX.external-field): a
// tensor's type, dims and data are gathered as its fields stream and judged when it ends, and an
// initializer is listed in the summary.
#include <algorithm>

#include "common/contained_path.hpp"
#include "common/printable.hpp"
#include "onnx/data_types.hpp"
#include "onnx/validator.hpp"

namespace tensorgate::detail::onnx {
namespace {

constexpr uint128 kMaxElements = uint128{1} << 63;

bool is_decimal(std::string_view s) {
  return !s.empty() && s.size() <= 20 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::optional<std::uint64_t> decimal_value(std::string_view s) {
  if (!is_decimal(s)) return std::nullopt;
  uint128 v = 0;
  for (const char c : s) v = v * 10 + static_cast<unsigned>(c - '0');
  if (v > UINT64_MAX) return std::nullopt;
  return static_cast<std::uint64_t>(v);
}

// The bytes `elements` elements of `t` take (sub-byte types packed, the last byte padded).
uint128 bytes_of(const DataType& t, uint128 elements) { return (elements * t.bits + 7) / 8; }

std::string count_text(uint128 v) { return std::to_string(static_cast<std::uint64_t>(v)); }

}  // namespace

void OnnxValidator::tensor_value(std::uint32_t field, std::uint64_t value) {
  switch (field) {
    case 1: {  // dims, one by one or packed
      ++tensor_.rank;
      if (tensor_.dims.size() < kMaxListedDims) tensor_.dims.push_back(value);
      if (static_cast<std::int64_t>(value) < 0) tensor_.negative_dim = true;
      else if (tensor_.elements <= kMaxElements) tensor_.elements *= value;
      break;
    }
    case 2: tensor_.data_type = value; break;
    case 5: ++tensor_.int32s; break;
    case 7: ++tensor_.int64s; break;
    case 11: ++tensor_.uint64s; break;
    case 14: tensor_.data_location = value; break;
    default: break;
  }
}

void OnnxValidator::external_entry_done() {
  const std::string& key = tensor_.entry_key;
  if (key == "location") tensor_.location = tensor_.entry_value;
  else if (key == "offset") tensor_.offset = tensor_.entry_value;
  else if (key == "length") tensor_.length = tensor_.entry_value;
}

void OnnxValidator::tensor_done() {
  TensorState& t = tensor_;
  const std::optional<std::string_view> name = t.name.empty() ? std::nullopt : std::optional<std::string_view>(t.name);
  const DataType* type = data_type(t.data_type);
  if (!type)
    findings_.add(Rule::ox_data_type, "data_type " + std::to_string(t.data_type) + " (" + std::string(data_type_name(t.data_type)) + ")", t.pos, name);
  const bool shape_ok = !t.negative_dim && t.elements <= kMaxElements;
  if (t.negative_dim) findings_.add(Rule::ox_dims, "a negative dimension", t.pos, name);
  else if (!shape_ok) findings_.add(Rule::ox_dims, "its dimensions multiply past 2^63 elements", t.pos, name);

  const std::uint64_t typed = t.floats + t.int32s + t.int64s + t.doubles + t.uint64s + t.strings;
  const bool external = t.external || t.data_location == 1;
  std::string_view data = "none";
  std::uint64_t stored = 0;
  if (external) {
    data = "external";
    for (const auto& [field, value] : {std::pair{"offset", &t.offset}, std::pair{"length", &t.length}})
      if (*value && !is_decimal(**value))
        findings_.add(Rule::ox_external_field, std::string("external data ") + field + " " + quoted(**value) +
                                                   " is not a decimal integer", t.pos, name);
    const std::optional<std::uint64_t> length = t.length ? decimal_value(*t.length) : std::nullopt;
    if (length) stored = *length;
    if (length && type && type->bits && shape_ok && bytes_of(*type, t.elements) != *length)
      findings_.add(Rule::ox_tensor_size, "external data length " + std::to_string(*length) + " bytes for " +
                                              count_text(t.elements) + " " + std::string(type->name) + " elements (" +
                                              count_text(bytes_of(*type, t.elements)) + " bytes)", t.pos, name);
    if (!t.location) {
      findings_.add(Rule::ox_external_location, "external data without a location: it names no file", t.pos, name);
    } else if (const auto why = escapes_directory(*t.location)) {
      findings_.add(Rule::ox_external_location, "external data location " + quoted(*t.location) + ": " + std::string(*why) +
                                                    "; onnx would read a file outside the model's directory", t.pos, name);
    } else {
      // What the file must hold: onnx reads `length` bytes from `offset`, or without a length the
      // tensor's own size (it reads to the end of the file and then checks that size).
      const std::optional<std::uint64_t> offset = t.offset ? decimal_value(*t.offset) : std::uint64_t{0};
      const std::optional<uint128> size = length ? std::optional<uint128>(*length)
                                          : type && type->bits && shape_ok ? std::optional<uint128>(bytes_of(*type, t.elements))
                                                                           : std::nullopt;
      note_external_file(*t.location, offset ? uint128{*offset} + size.value_or(0) : uint128{0});
    }
  } else if (t.has_raw) {
    data = "raw";
    stored = t.raw_bytes;
    if (typed) {
      findings_.add(Rule::ox_tensor_size, "data in raw_data and in a typed field at once", t.pos, name);
    } else if (type && !type->bits) {
      findings_.add(Rule::ox_tensor_size, "a STRING tensor's values in raw_data, which holds only fixed-size elements", t.pos, name);
    } else if (type && shape_ok && bytes_of(*type, t.elements) != t.raw_bytes) {
      findings_.add(Rule::ox_tensor_size, "raw_data of " + std::to_string(t.raw_bytes) + " bytes for " + count_text(t.elements) +
                                              " " + std::string(type->name) + " elements (" + count_text(bytes_of(*type, t.elements)) +
                                              " bytes)", t.pos, name);
    }
  } else if (type && shape_ok) {
    std::uint64_t in_field = 0;
    switch (type->field) {
      case TypedField::float_data: in_field = t.floats; break;
      case TypedField::int32_data: in_field = t.int32s; break;
      case TypedField::int64_data: in_field = t.int64s; break;
      case TypedField::double_data: in_field = t.doubles; break;
      case TypedField::uint64_data: in_field = t.uint64s; break;
      case TypedField::string_data: in_field = t.strings; break;
      case TypedField::none: break;
    }
    const uint128 want = (t.elements * type->values_per_element + type->elements_per_value - 1) / type->elements_per_value;
    if (typed) data = "typed";
    if (typed != in_field)
      findings_.add(Rule::ox_tensor_size, "values in a typed field that does not hold " + std::string(type->name) + " elements", t.pos, name);
    else if (want != in_field)
      findings_.add(Rule::ox_tensor_size, std::to_string(in_field) + " values for " + count_text(t.elements) + " " +
                                              std::string(type->name) + " elements (" + count_text(want) + " values)", t.pos, name);
    if (type->bits) stored = static_cast<std::uint64_t>(bytes_of(*type, t.elements));
  }
  if (t.kind == initializer) {
    note_main_name(t.name, directly_in_main_graph());
    list_initializer(shape_ok ? static_cast<std::uint64_t>(t.elements) : 0, stored, data);
  }
}

// A file external data names, once, with the most bytes any tensor reads from it (tracked within
// Limits::onnx.max_listed_tensors files and the summary's byte bound; past them it is counted).
void OnnxValidator::note_external_file(std::string_view location, uint128 reach) {
  const std::string file(location.substr(0, kMaxListedName));
  const std::uint64_t needed = reach > UINT64_MAX ? UINT64_MAX : static_cast<std::uint64_t>(reach);
  if (const auto known = external_files_.find(file); known != external_files_.end()) {
    OnnxExternalFile& f = summary_.external_files[known->second];
    if (needed > f.bytes_needed) {
      f.bytes_needed = needed;
      f.farthest_tensor = tensor_.name.substr(0, kMaxListedName);
    }
    return;
  }
  const std::uint64_t cost = 2 * (sizeof file + file.size()) + std::min(tensor_.name.size(), kMaxListedName);
  if (external_files_.size() >= limits_.onnx.max_listed_tensors || !take_listed(cost)) {
    ++summary_.external_files_not_listed;
    return;
  }
  if (!charge(kSlotBytes + cost, true)) return;
  external_files_.emplace(file, summary_.external_files.size());
  summary_.external_files.push_back(OnnxExternalFile{file, needed, tensor_.name.substr(0, kMaxListedName)});
}

void OnnxValidator::list_initializer(std::uint64_t elements, std::uint64_t bytes, std::string_view data) {
  const std::string_view dtype = data_type_name(tensor_.data_type);
  summary_.parameters += elements;
  summary_.bytes += bytes;
  auto totals = std::find_if(summary_.by_dtype.begin(), summary_.by_dtype.end(),
                             [&](const OnnxDtypeTotals& d) { return d.dtype == dtype; });
  if (totals == summary_.by_dtype.end()) totals = summary_.by_dtype.insert(totals, OnnxDtypeTotals{std::string(dtype), 0, 0, 0});
  ++totals->tensors;
  totals->parameters += elements;
  totals->bytes += bytes;
  const std::uint64_t cost = sizeof(OnnxTensor) + tensor_.name.size() + tensor_.dims.size() * 8 +
                             (tensor_.location ? std::min(tensor_.location->size(), kMaxListedName) : 0);
  if (summary_.initializers.size() >= limits_.onnx.max_listed_tensors || !take_listed(cost)) {
    ++summary_.initializers_not_listed;
    return;
  }
  if (!charge(cost, true)) return;
  OnnxTensor out;
  out.name = tensor_.name;
  out.dtype = std::string(dtype);
  out.shape = tensor_.dims;
  out.elements = elements;
  out.bytes = bytes;
  out.data = std::string(data);
  if (tensor_.location) out.location = tensor_.location->substr(0, kMaxListedName);
  out.offset = tensor_.pos;
  if (data == "raw" && tensor_.raw_fields == 1) out.data_offset = tensor_.raw_pos;
  summary_.initializers.push_back(std::move(out));
}

}  // namespace tensorgate::detail::onnx
