#pragma once
// The hash of the duplicate-name sets: 8 bytes a step, folded with 64x64->128-bit multiplies
// (the wyhash construction), and keyed with a seed drawn once per process, so that nobody can
// prepare a file whose names all collide (a quadratic-time attack on the service).
#include <cstdint>
#include <cstring>
#include <string_view>

#include "common/uint128.hpp"

namespace tensorgate::detail {

std::uint64_t process_hash_seed();

inline std::uint64_t fold(std::uint64_t a, std::uint64_t b) {
  const uint128 r = static_cast<uint128>(a) * b;
  return static_cast<std::uint64_t>(r) ^ static_cast<std::uint64_t>(r >> 64);
}

inline std::size_t seeded_hash(std::string_view s) {
  constexpr std::uint64_t k0 = 0xa0761d6478bd642full, k1 = 0xe7037ed1a0b428dbull, k2 = 0x8ebc6af09c88c6e3ull;
  static const std::uint64_t seed = process_hash_seed();
  std::uint64_t h = seed ^ k0 ^ s.size();
  const char* p = s.data();
  std::size_t n = s.size();
  for (; n >= 8; p += 8, n -= 8) {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    h = fold(h ^ v, k1);
  }
  std::uint64_t tail = 0;
  if (n) std::memcpy(&tail, p, n);  // an empty view's data() may be null: no memcpy from it
  return fold(fold(h ^ tail, k2 ^ n), k0);
}

// The same keyed hash of an integer a file chose (a pickle's memo index, a zip offset).
inline std::size_t seeded_hash_u64(std::uint64_t v) {
  constexpr std::uint64_t k0 = 0xa0761d6478bd642full, k1 = 0xe7037ed1a0b428dbull;
  static const std::uint64_t seed = process_hash_seed();
  return fold(fold(seed ^ v, k1), k0);
}

}  // namespace tensorgate::detail
