#include "common/seeded_hash.hpp"

#include <random>

namespace tensorgate::detail {

std::uint64_t process_hash_seed() {
  std::random_device rd;
  return (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
}

}  // namespace tensorgate::detail
