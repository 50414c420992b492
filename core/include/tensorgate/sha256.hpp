#pragma once
// SHA-256 of a stream, through OpenSSL's EVP interface (which picks the SHA-NI / AVX2 code
// paths of the CPU it runs on).
#include <cstddef>
#include <memory>
#include <string>

struct evp_md_ctx_st;

namespace tensorgate::service {

class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;

  void update(const void* data, std::size_t size);
  // Lowercase hex of the digest; the object is spent afterwards.
  std::string hex_digest();

 private:
  struct Free {
    void operator()(evp_md_ctx_st* ctx) const;
  };
  std::unique_ptr<evp_md_ctx_st, Free> ctx_;
};

}  // namespace tensorgate::service
