#pragma once
// SHA-256 of a stream: the service's upload digest, and the digest a report gives of a value it
// cuts (so a hub can still compare it). OpenSSL's one-algorithm SHA256_* functions underneath
// (core/src/common/sha256.cpp says why not EVP).
#include <cstddef>
#include <memory>
#include <string>

struct SHA256state_st;

namespace tensorgate {

class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;

  void update(const void* data, std::size_t size);
  // Lowercase hex of the digest; the object is spent afterwards.
  std::string hex_digest();
  // The digest of one buffer.
  static std::string hex_of(const void* data, std::size_t size);

 private:
  struct Free {
    void operator()(SHA256state_st* ctx) const;
  };
  std::unique_ptr<SHA256state_st, Free> ctx_;
};

}  // namespace tensorgate
