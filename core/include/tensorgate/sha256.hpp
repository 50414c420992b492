#pragma once
// SHA-256 of a stream, through OpenSSL's EVP interface (which picks the SHA-NI / AVX2 code
// paths of the CPU it runs on): the service's upload digest, and the digest a report gives of
// a value it cuts (so a hub can still compare it).
#include <cstddef>
#include <memory>
#include <string>

struct evp_md_ctx_st;

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
    void operator()(evp_md_ctx_st* ctx) const;
  };
  std::unique_ptr<evp_md_ctx_st, Free> ctx_;
};

}  // namespace tensorgate
