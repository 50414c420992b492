#pragma once
// Counts that stop at UINT64_MAX instead of wrapping: a hostile shape or a million tensors can
// ask for more parameters or bytes than 64 bits hold, and a report must then say "at least
// this many", never a small number that wrapped around.
#include <cstdint>

namespace tensorgate::detail {

inline std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r;
  return __builtin_add_overflow(a, b, &r) ? UINT64_MAX : r;
}

inline std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r;
  return __builtin_mul_overflow(a, b, &r) ? UINT64_MAX : r;
}

}  // namespace tensorgate::detail
