#pragma once
// The hash of the duplicate-name sets and the hash tables of untrusted strings: 16 bytes a
// 64x64->128-bit multiply (the wyhash construction), the last 16 read as two overlapping words
// rather than byte by byte, and keyed with a seed drawn once per process, so that nobody can
// prepare a file whose names all collide (a quadratic-time attack on the service). The seed
// also keys the word each multiply takes (not a public constant): a word equal to a public
// constant would zero the product and with it everything the seed had put in.
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

inline std::uint64_t load64(const char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

inline std::uint64_t load32(const char* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

struct HashKeys {
  std::uint64_t state;  // where every hash starts
  std::uint64_t word;   // mixed into the first word of each multiply
};

inline HashKeys draw_hash_keys() {
  constexpr std::uint64_t k0 = 0xa0761d6478bd642full, k1 = 0xe7037ed1a0b428dbull;
  const std::uint64_t seed = process_hash_seed();
  return HashKeys{seed ^ k0, fold(seed ^ k1, k0) | 1};
}

inline std::size_t seeded_hash(std::string_view s) {
  static const HashKeys keys = draw_hash_keys();
  const char* p = s.data();
  std::size_t n = s.size();
  std::uint64_t h = keys.state ^ n, a = 0, b = 0;
  if (n > 16) {
    for (; n > 16; p += 16, n -= 16) h = fold(load64(p) ^ keys.word, load64(p + 8) ^ h);
    a = load64(p + n - 16);  // the last 16 bytes, overlapping what the loop took
    b = load64(p + n - 8);
  } else if (n >= 8) {
    a = load64(p);
    b = load64(p + n - 8);
  } else if (n >= 4) {
    a = load32(p);
    b = load32(p + n - 4);
  } else if (n > 0) {  // an empty view's data() may be null: nothing is read from it
    const auto byte = [p](std::size_t i) { return static_cast<std::uint64_t>(static_cast<unsigned char>(p[i])); };
    a = byte(0) << 16 | byte(n / 2) << 8 | byte(n - 1);
  }
  return fold(keys.word ^ s.size(), fold(a ^ keys.word, b ^ h));
}

// The same keyed hash of an integer a file chose (a pickle's memo index, a zip offset).
inline std::size_t seeded_hash_u64(std::uint64_t v) {
  constexpr std::uint64_t k0 = 0xa0761d6478bd642full, k1 = 0xe7037ed1a0b428dbull;
  static const std::uint64_t seed = process_hash_seed();
  return fold(fold(seed ^ v, k1), k0);
}

}  // namespace tensorgate::detail
