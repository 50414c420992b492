#include "tensorgate/sha256.hpp"

// OpenSSL 3 marks the one-algorithm functions deprecated in favour of EVP, but they run the same
// SHA-NI / AVX2 code (measured side by side: the same MB/s). EVP is what a small check cannot
// afford: linked statically, EVP_sha256 pulls in the provider machinery and with it every
// algorithm's tables, ~16,600 relocations the loader applies at every start
// (docs/architecture.md, "Build"). SHA256_Init pulls in the SHA-256 code and the CPU probe only.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>

// libcrypto's CPU probe (not in its public headers). Normally .init runs it before main; the
// release executable defers it to here (cli/deferred_start_work.cpp). It guards itself against a
// second run, so elsewhere this call costs nothing.
extern "C" void OPENSSL_cpuid_setup(void);

namespace tensorgate {
namespace {

// Once per process, before the first hash: a function-local static, so the service's threads
// cannot race on OpenSSL's unsynchronised guard.
void probe_cpu_once() {
  static const bool probed = (OPENSSL_cpuid_setup(), true);
  (void)probed;
}

}  // namespace

void Sha256::Free::operator()(SHA256state_st* ctx) const { delete ctx; }

Sha256::Sha256() : ctx_(new SHA256_CTX) {
  probe_cpu_once();
  SHA256_Init(ctx_.get());
}

Sha256::~Sha256() = default;

void Sha256::update(const void* data, std::size_t size) { SHA256_Update(ctx_.get(), data, size); }

std::string Sha256::hex_digest() {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256_Final(digest, ctx_.get());
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * sizeof digest);
  for (const unsigned char byte : digest) {
    out += kHex[byte >> 4];
    out += kHex[byte & 0xf];
  }
  return out;
}

std::string Sha256::hex_of(const void* data, std::size_t size) {
  Sha256 sha;
  sha.update(data, size);
  return sha.hex_digest();
}

}  // namespace tensorgate
