// OpenSSL's CPU probe, moved from every start to the first SHA-256 (release executable on
// x86-64: cli/CMakeLists.txt links it with -Wl,--wrap=OPENSSL_cpuid_setup).
//
// Why: libcrypto's x86_64cpuid.o puts a call to OPENSSL_cpuid_setup in the executable's .init,
// so every process runs OpenSSL's CPUID probe before main, SHA-256 used or not. On a VM each
// CPUID traps to the hypervisor: the probe was ~41 us of a ~1.2 ms check of a small file, ~5% of
// /bin/true's whole run (issue 19; bench/README.md). A check hashes nothing unless a value is cut;
// the service hashes every upload and pays the probe once, at its first.
//
// How: with --wrap, every call to OPENSSL_cpuid_setup in the executable reaches the wrapper below
// instead. .init runs before any constructor, so a call before this file's constructor has run
// is .init's, and is skipped. Every later call (Sha256's first construction,
// core/src/common/sha256.cpp; OpenSSL's own initialisation) runs the probe, which guards itself
// against running twice. Until it has run, libcrypto's capability vector is zero, so nothing
// could use it wrongly: OpenSSL falls back to its plain code, never to a wrong result.
#if defined(__x86_64__)

extern "C" void __real_OPENSSL_cpuid_setup(void);  // NOLINT(bugprone-reserved-identifier)

namespace {

bool constructors_started = false;

__attribute__((constructor)) void mark_constructors_started() { constructors_started = true; }

}  // namespace

extern "C" void __wrap_OPENSSL_cpuid_setup(void) {  // NOLINT(bugprone-reserved-identifier)
  if (constructors_started) __real_OPENSSL_cpuid_setup();
}

#endif
