// Work that libcrypto and static glibc do at every start, moved to its first use (cli/CMakeLists.txt
// links the executable with --wrap for each function below; _dl_get_origin's only where glibc is
// linked in statically, TG_STATIC_GLIBC: elsewhere it belongs to the dynamic loader).
//
// Why: a check of a small file is ~1 ms of CPU on a VM, and both of these ran before main
// whether the run needed them or not (bench/README.md):
//  - libcrypto's x86_64cpuid.o calls OPENSSL_cpuid_setup from the executable's .init: OpenSSL's
//    CPUID probe, whose CPUIDs a hypervisor traps, ~41 us. A check hashes nothing unless a value
//    is cut. (The service, tensorgate-serve, starts once and keeps the probe in its .init.)
//  - static glibc's _dl_non_dynamic_init asks _dl_get_origin for the executable's directory
//    (readlink("/proc/self/exe"), ~30 us, and a malloc), for $ORIGIN in a later dlopen's search
//    paths. The only dlopen a static tensorgate could make is glibc's NSS modules, from system
//    paths.
//
// How: with --wrap, every call to the function in the executable reaches its wrapper here. .init
// and glibc's start-up run before any constructor, so a call before this file's constructor
// has run is theirs, and is deferred:
//  - OpenSSL's probe is skipped; every later call (Sha256's first construction,
//    core/src/common/sha256.cpp; OpenSSL's own initialisation) runs it, and it guards itself
//    against running twice. Until then libcrypto's capability vector is zero, so OpenSSL uses its
//    plain code: slower, never wrong.
//  - _dl_get_origin answers "not computed yet" (a null origin). That is the state glibc's
//    dynamic loader leaves the executable's own map in; glibc computes the origin the first time
//    a path needs $ORIGIN (DL_DST_REQUIRED, elf/dl-dst.h), and that later call reaches the real
//    function.
#if defined(__x86_64__)

extern "C" {
void __real_OPENSSL_cpuid_setup(void);  // NOLINT(bugprone-reserved-identifier)
#if defined(TG_STATIC_GLIBC)
const char* __real__dl_get_origin(void);  // NOLINT(bugprone-reserved-identifier)
#endif
}

namespace {

bool constructors_started = false;

__attribute__((constructor)) void mark_constructors_started() { constructors_started = true; }

}  // namespace

extern "C" {

void __wrap_OPENSSL_cpuid_setup(void) {  // NOLINT(bugprone-reserved-identifier)
  if (constructors_started) __real_OPENSSL_cpuid_setup();
}

#if defined(TG_STATIC_GLIBC)
const char* __wrap__dl_get_origin(void) {  // NOLINT(bugprone-reserved-identifier)
  return constructors_started ? __real__dl_get_origin() : nullptr;
}
#endif

}  // extern "C"

#endif
