// The release executable's entry point (cli/CMakeLists.txt: -Wl,-e,tg_entry, static-PIE builds
// on x86-64 only): before glibc's _start relocates the executable, the writable segment that
// relocation and start-up write is asked for in one system call instead of one page fault each.
//
// Why: a static PIE relocates itself at every start, writing every page of its RELRO data
// (~40 pages of vtables and pointer tables); each write is a copy-on-write fault, ~16 us on a
// VM, ~0.65 ms of a ~4 ms check of a small file. MADV_POPULATE_WRITE (Linux 5.14)
// makes the same private copies in one call, ~0.18 ms measured here. The rest of the segment,
// .data and .bss (~18 pages), goes with it: start-up and a check write ~10 of them, a fault
// each otherwise (bench/start_costs: a fault ~9 us, a populated page ~0.4 and its first write
// ~3.3). On an older kernel the call fails with EINVAL and nothing changes. The .bss a local check
// never touches (link/cold_bss.ld: the remote client's tables, glibc's thread keys, ~9 pages) is
// left out, to fault in only where it is used: populating it was ~0.04 of /bin/true's time.
//
// The code is not populated. The check path's code sits together (.text.check_path,
// cli/link/check_path.order), so fault-around maps it in ~13 faults of 64 KiB each, and
// MADV_POPULATE_READ of those ~200 pages cost more than the faults: 1.02 of not populating them
// with the executable read back from disk, 1.04 with it freshly copied (bench/README.md,
// "The small check's start, 2026-12-03: the page cache").
//
// Nothing here may need what _start sets up: no relocated pointer (only PC-relative addresses of
// hidden symbols), no thread pointer (no stack protector), no libc (raw system calls).
#if defined(__x86_64__) && defined(__linux__)
#include <elf.h>
#include <sys/syscall.h>

#include <cstddef>
#include <cstdint>

namespace {

constexpr long kMadvPopulateWrite = 23;  // MADV_POPULATE_WRITE, Linux 5.14
constexpr std::uintptr_t kPage = 4096;

}  // namespace

extern "C" {
// Defined by the linker: the executable's ELF header (the start of its first, read-only load
// segment). Hidden, so that its address is PC-relative, needing no relocation.
extern const Elf64_Ehdr __ehdr_start __attribute__((visibility("hidden")));
// Defined by link/cold_bss.ld: the .bss left out (equal when nothing matched its rules).
extern char __tg_cold_bss_start[] __attribute__((visibility("hidden")));
extern char __tg_cold_bss_end[] __attribute__((visibility("hidden")));

__attribute__((visibility("hidden"), used, no_stack_protector)) void tg_prefault(void) {
  const auto populate = [](std::uintptr_t from, std::uintptr_t to) {
    from &= ~(kPage - 1);
    to = (to + kPage - 1) & ~(kPage - 1);
    long ret;
    asm volatile("syscall"
                 : "=a"(ret)
                 : "0"(static_cast<long>(SYS_madvise)), "D"(from), "S"(to - from), "d"(kMadvPopulateWrite)
                 : "rcx", "r11", "memory");
    (void)ret;  // advice only
  };
  const auto base = reinterpret_cast<std::uintptr_t>(&__ehdr_start);  // the first segment is at 0
  const auto* phdr = reinterpret_cast<const Elf64_Phdr*>(base + __ehdr_start.e_phoff);
  const auto cold_start = reinterpret_cast<std::uintptr_t>(__tg_cold_bss_start);
  const auto cold_end = reinterpret_cast<std::uintptr_t>(__tg_cold_bss_end);
  for (std::size_t i = 0; i < __ehdr_start.e_phnum; ++i) {
    if (phdr[i].p_type != PT_LOAD || !(phdr[i].p_flags & PF_W)) continue;
    const std::uintptr_t start = base + phdr[i].p_vaddr, end = start + phdr[i].p_memsz;
    if (cold_start < cold_end && start <= cold_start && cold_end <= end) {
      // The pages the cold part shares with hot data at either end are populated.
      populate(start, cold_start);
      populate(cold_end, end);
    } else {
      populate(start, end);
    }
  }
}
}

// The kernel enters with the stack pointer 16-byte aligned (as a call site must have it) and
// %rdx the dynamic loader's finaliser (none: 0), which _start passes on; %r12 keeps it across
// the call. Then _start runs as if it were the entry point.
asm(R"(
  .text
  .globl tg_entry
  .hidden tg_entry
  .type tg_entry, @function
tg_entry:
  mov %rdx, %r12
  call tg_prefault
  mov %r12, %rdx
  jmp _start
  .size tg_entry, . - tg_entry
)");
#endif
