#include "source_check.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <memory>

#include "tensorgate/validator.hpp"

namespace tensorgate::cli {
namespace {

constexpr std::size_t kChunk = 1 << 20;

// Makes the buffer's pages from `from` to `to` resident in one system call before a read fills
// them: a read into fresh memory takes a page fault per 4 KiB page, ~9 us each on a VM, where
// MADV_POPULATE_WRITE (Linux 5.14) costs ~4 (issue 19: a small file's 64 KiB tail read was 16 of
// its page faults). Advice only: an older kernel refuses it and the faults happen as before.
void populate(const std::byte* buffer, std::size_t from, std::size_t to) {
#ifdef MADV_POPULATE_WRITE
  const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto start = reinterpret_cast<std::uintptr_t>(buffer + from) & ~(page - 1);
  const auto end = reinterpret_cast<std::uintptr_t>(buffer + to);
  ::madvise(reinterpret_cast<void*>(start), end - start, MADV_POPULATE_WRITE);
#else
  (void)buffer, (void)from, (void)to;
#endif
}

// How much room to ask the validator for: all it wants when the size vouches that the bytes exist,
// a chunk at a time otherwise (a stream's declared header length is only a claim).
std::size_t room_for(std::uint64_t wanted, bool size_known) {
  return size_known ? static_cast<std::size_t>(std::min<std::uint64_t>(wanted, SIZE_MAX)) : kChunk;
}

}  // namespace

CheckedFile check_source(InputSource& source, const std::string& path, std::string_view name,
                         const Limits& limits, FormatChoice format, MemoryBudget* budget) {
  auto validator = make_validator(format, name, limits, budget);
  std::optional<std::uint64_t> size = source.size();
  if (size) validator->set_total_size(*size);

  // Not value-initialized: zeroing 1 MiB would touch every page even for a 100-byte file.
  const auto buffer = std::make_unique_for_overwrite<std::byte[]>(kChunk);
  std::size_t resident = 0;  // the buffer's bytes made resident so far (populate)
  std::uint64_t consumed = 0;
  bool tail = false;  // reading the last bytes, which the validator looks at after a skip
  for (bool first = true;; first = false) {
    if (size && !tail && validator->bytes_wanted() == 0) {
      // Skip what is only counted, but for the last bytes the validator still looks at
      // (FK.polyglot's search for a zip end record).
      const std::uint64_t keep =
          source.reads_tail() ? std::min(validator->tail_wanted(), *size - std::min(*size, consumed)) : 0;
      if (*size - keep > consumed) {
        if (auto error = source.skip(*size - keep - consumed)) return CheckedFile{path, std::nullopt, *error};
        validator->skip(*size - keep - consumed);
        consumed = *size - keep;
      }
      if (keep == 0) break;
      tail = true;
    }
    if (tail && consumed >= *size) break;
    const std::uint64_t wanted = tail ? *size - consumed : validator->bytes_wanted();
    // Straight into the validator's own memory where it keeps the bytes (a safetensors header:
    // one read of all of it, and no second copy); otherwise into this buffer.
    std::span<std::byte> into = tail ? std::span<std::byte>() : validator->prepare(room_for(wanted, size.has_value()));
    if (into.empty()) {
      const std::size_t want = size ? static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, wanted)) : kChunk;
      if (want > resident) {
        populate(buffer.get(), resident, want);
        resident = want;
      }
      into = std::span(buffer.get(), want);
    }
    const SourceRead r = source.read(into, wanted);
    if (r.error) return CheckedFile{path, std::nullopt, *r.error};
    if (first && !size && (size = source.size())) validator->set_total_size(*size);  // before any feed
    if (r.bytes == 0) break;
    consumed += r.bytes;
    const Progress p = validator->feed(into.first(r.bytes));
    if (p == Progress::aborted) break;
    // The verdict is final and the rest could only be counted: what is established so far.
    if (p == Progress::invalid && !size && source.stop_when_final()) return CheckedFile{path, validator->snapshot(), std::nullopt};
  }
  return CheckedFile{path, validator->finish(), std::nullopt};
}

}  // namespace tensorgate::cli
