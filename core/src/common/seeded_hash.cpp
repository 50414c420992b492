#include "common/seeded_hash.hpp"

#if defined(__linux__)
#include <sys/random.h>
#endif

#include <random>

namespace tensorgate::detail {

// One getrandom(2) call. std::random_device first asks CPUID whether the processor has RDRAND,
// and a virtual machine traps CPUID: 25-50 us of a ~3 ms check of a small file here,
// against ~1.3 us for the system call. It stays the fallback where the call is refused or absent.
std::uint64_t process_hash_seed() {
#if defined(__linux__)
  std::uint64_t seed = 0;
  if (::getrandom(&seed, sizeof seed, GRND_NONBLOCK) == static_cast<ssize_t>(sizeof seed)) return seed;
#endif
  std::random_device rd;
  return (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
}

}  // namespace tensorgate::detail
