#pragma once
// A GGUF summary's scalar key-value pairs as numbers: what the audit compares with config.json
// and what the diff shows when a key changes.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "tensorgate/gguf.hpp"

namespace tensorgate::detail::audit {

// GGUF value types (gguf.h's enum gguf_type).
enum GgufValueType : std::uint32_t {
  kValueU8 = 0, kValueI8, kValueU16, kValueI16, kValueU32, kValueI32, kValueF32, kValueBool, kValueString,
  kValueArray, kValueU64, kValueI64, kValueF64,
};

// A metadata number.
struct ScalarValue {
  bool integer = false;        // an integer type (negative values never equal a config field)
  bool negative = false;
  std::uint64_t magnitude = 0;
  std::optional<double> real;  // f32 or f64
  bool f64 = false;
  std::string text;            // how it reads in a message: "-3", "1e-05 (f32)"
};

// The number a pair holds; nothing for a bool, a string or another type.
std::optional<ScalarValue> decode_scalar(const GgufScalar& s);
// The first pair of this key the summary kept, or nothing.
const GgufScalar* find_scalar(const GgufSummary& g, std::string_view key);

}  // namespace tensorgate::detail::audit
