#include "pickle/torch_types.hpp"

namespace tensorgate {
namespace {

struct Named {
  std::string_view torch;
  TorchDtype dtype;
};

constexpr Named kStorages[] = {
    {"FloatStorage", {"F32", 4}},       {"DoubleStorage", {"F64", 8}},        {"HalfStorage", {"F16", 2}},
    {"BFloat16Storage", {"BF16", 2}},   {"LongStorage", {"I64", 8}},          {"IntStorage", {"I32", 4}},
    {"ShortStorage", {"I16", 2}},       {"CharStorage", {"I8", 1}},           {"ByteStorage", {"U8", 1}},
    {"BoolStorage", {"BOOL", 1}},       {"ComplexFloatStorage", {"C64", 8}},  {"ComplexDoubleStorage", {"C128", 16}},
    {"QInt8Storage", {"QI8", 1}},       {"QUInt8Storage", {"QU8", 1}},        {"QInt32Storage", {"QI32", 4}},
    {"QUInt4x2Storage", {"QU4x2", 1}},  {"QUInt2x4Storage", {"QU2x4", 1}},    {"UntypedStorage", {"U8", 1}},
};

constexpr Named kDtypes[] = {
    {"float32", {"F32", 4}},     {"float64", {"F64", 8}},        {"float16", {"F16", 2}},
    {"bfloat16", {"BF16", 2}},   {"int64", {"I64", 8}},          {"int32", {"I32", 4}},
    {"int16", {"I16", 2}},       {"int8", {"I8", 1}},            {"uint8", {"U8", 1}},
    {"uint16", {"U16", 2}},      {"uint32", {"U32", 4}},         {"uint64", {"U64", 8}},
    {"bool", {"BOOL", 1}},       {"complex32", {"C32", 4}},      {"complex64", {"C64", 8}},
    {"complex128", {"C128", 16}}, {"float8_e4m3fn", {"F8_E4M3", 1}}, {"float8_e5m2", {"F8_E5M2", 1}},
    {"float8_e4m3fnuz", {"F8_E4M3FNUZ", 1}}, {"float8_e5m2fnuz", {"F8_E5M2FNUZ", 1}},
    {"float8_e8m0fnu", {"F8_E8M0", 1}}, {"qint8", {"QI8", 1}}, {"quint8", {"QU8", 1}}, {"qint32", {"QI32", 4}},
};

}  // namespace

std::optional<TorchDtype> torch_storage_dtype(std::string_view storage_class) {
  for (const Named& n : kStorages)
    if (n.torch == storage_class) return n.dtype;
  return std::nullopt;
}

namespace detail::pickle {

std::optional<TorchDtype> torch_dtype_object(std::string_view name) {
  for (const Named& n : kDtypes)
    if (n.torch == name) return n.dtype;
  return std::nullopt;
}

}  // namespace detail::pickle
}  // namespace tensorgate
