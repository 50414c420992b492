#include "flax/fx_dtype.hpp"

#include "common/printable.hpp"

namespace tensorgate::detail::flax {
namespace {

// flax's _ndarray_to_bytes writes arr.dtype.name; _dtype_from_name gives "bfloat16" to jax and
// every other name to np.dtype, where importing jax has registered ml_dtypes' types.
constexpr Dtype kDtypes[] = {
    {"bool", 1},          {"int8", 1},           {"uint8", 1},          {"int16", 2},
    {"uint16", 2},        {"int32", 4},          {"uint32", 4},         {"int64", 8},
    {"uint64", 8},        {"float16", 2},        {"bfloat16", 2},       {"float32", 4},
    {"float64", 8},       {"float128", 16},      {"complex64", 8},      {"complex128", 16},
    {"complex256", 32},   {"float8_e4m3fn", 1},  {"float8_e5m2", 1},    {"float8_e4m3b11fnuz", 1},
    {"float8_e4m3fnuz", 1}, {"float8_e5m2fnuz", 1}, {"float8_e4m3", 1}, {"float8_e3m4", 1},
    {"float8_e8m0fnu", 1}, {"float4_e2m1fn", 1},  {"float6_e2m3fn", 1},  {"float6_e3m2fn", 1},
    {"int4", 1},          {"uint4", 1},          {"int2", 1},           {"uint2", 1},
};

bool has(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

}  // namespace

const Dtype* dtype_named(std::string_view name) {
  for (const Dtype& d : kDtypes)
    if (d.name == name) return &d;
  return nullptr;
}

std::string dtype_refusal(std::string_view name) {
  std::string_view code = name;
  if (!code.empty() && (code[0] == '|' || code[0] == '<' || code[0] == '>' || code[0] == '=')) code.remove_prefix(1);
  if (name == "object" || code.starts_with("O"))
    return "an object dtype: its elements are Python objects, which np.frombuffer would read as pointers";
  if (name.starts_with("datetime") || name.starts_with("timedelta") || code.starts_with("M") || code.starts_with("m"))
    return "a date or time dtype, not numeric data flax writes";
  if (name.starts_with("void") || code.starts_with("V") || has(name, "(") || has(name, "[") || has(name, "{") || has(name, ","))
    return "a structured or void dtype, which flax does not write";
  if (name.starts_with("str") || name.starts_with("bytes") || code.starts_with("U") || code.starts_with("S"))
    return "a string dtype, not numeric data";
  return "not a dtype name flax writes (numpy's names of plain numeric, boolean and complex types, and jax's bfloat16, "
         "float8 and int4 types)";
}

}  // namespace tensorgate::detail::flax
