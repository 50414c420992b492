#include "source_check.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "tensorgate/validator.hpp"

namespace tensorgate::cli {
namespace {

constexpr std::size_t kChunk = 1 << 20;
// Whether a run the validator does not look at (bytes_skippable()) is sought over or read
// follows the next read's bound: a run at least that long would make the read mostly bytes only
// to be counted, so one lseek saves a copy and adds no read; a shorter one is read in the stream.
// The bound doubles with every read and drops to kReadAfterSeek after a long seek, so a run of
// small tensors soon reads through in chunks again (a short seek costs a system call and saves
// less than a page of copying: never under kMinSeek), while the layout of most weight files, a
// large matrix and its small bias in turn, seeks over both.
constexpr std::uint64_t kMinSeek = 1024;
// The first read after a long seek (at least a chunk). Between two initializers' raw data lie
// tens of bytes (the next tensor's name, type and dims), so a larger read there copies mostly raw
// data only to be counted (bench/run_onnx_skip_bench.py's 1 GB model: 16 MB read at 64 KiB a
// seek, 2 MB at a page, 0.3 MB at 512 bytes with the biases sought over too); a long run of graph
// bytes reaches whole chunks again in eleven reads.
constexpr std::size_t kReadAfterSeek = 512;

// Makes the buffer's pages from `from` to `to` resident in one system call before a read fills
// them: a read into fresh memory takes a page fault per 4 KiB page, ~9 us each on a VM, where
// MADV_POPULATE_WRITE (Linux 5.14) costs ~4 (a small file's 64 KiB tail read was 16 of its page
// faults). Advice only: an older kernel refuses it and the faults happen as before.
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

// The bytes read for the validator to look at but not keep: as large as the largest read so far
// (at most kChunk), and released before the validator finishes. A small file's reads (its first
// 4 KiB, the 64 KiB tail) then come from the heap, and the canonical check and the report take
// the same pages again instead of fresh ones; only a stream's 1 MiB chunks are a mapping of their
// own. (A fixed 1 MiB buffer, mapped and unmapped for every file, left the SmolLM2
// check 8 page faults and ~0.13 of /bin/true's time more.)
class ReadBuffer {
 public:
  std::span<std::byte> room(std::size_t n) {
    if (n > capacity_) {
      // At least doubled, so that reads growing a little at a time reallocate only a few times.
      // Not value-initialized: zeroing would touch every page before the read does.
      capacity_ = std::max(n, std::min(kChunk, 2 * capacity_));
      bytes_ = std::make_unique_for_overwrite<std::byte[]>(capacity_);
      populate(bytes_.get(), 0, capacity_);
    }
    return {bytes_.get(), n};
  }
  void release() {
    bytes_.reset();
    capacity_ = 0;
  }

 private:
  std::unique_ptr<std::byte[]> bytes_;
  std::size_t capacity_ = 0;
};

// How much room to ask the validator for: all it wants when the size vouches that the bytes exist,
// a chunk at a time otherwise (a stream's declared header length is only a claim).
std::size_t room_for(std::uint64_t wanted, bool size_known) {
  return size_known ? static_cast<std::size_t>(std::min<std::uint64_t>(wanted, SIZE_MAX)) : kChunk;
}

// A device still valid so far after Limits::max_device_bytes: what is established, and no verdict.
CheckedFile device_cut_off(const Validator& validator, const std::string& path, std::uint64_t consumed) {
  Report report = validator.snapshot();
  report.valid = false;
  report.canonical.reset();
  report.aborted = Aborted{"device-bytes",
                           "read " + std::to_string(consumed) +
                               " bytes of a device, which has no size and may never end, and the verdict is not final "
                               "(a device is read at most Limits::max_device_bytes)",
                           AbortKind::limit};
  return CheckedFile{path, std::move(report), std::nullopt};
}

// How far to seek from `consumed` over a run the validator will not look at: within the file,
// short of the tail the validator looks at, and 0 when shorter than `least` (the next read's
// bound, at least kMinSeek). A truncated file's
// run claims more than the file holds; what it holds is sought over and the validator finds the
// truncation at the end, as when fed.
std::uint64_t seek_run(const Validator& validator, const InputSource& source, std::uint64_t size,
                       std::uint64_t consumed, std::uint64_t least) {
  if (!source.seeks()) return 0;
  least = std::max(least, kMinSeek);
  const std::uint64_t run = validator.bytes_skippable();
  if (run < least) return 0;
  const std::uint64_t keep = source.reads_tail() ? validator.tail_wanted() : 0;
  const std::uint64_t room = size > consumed + keep ? size - consumed - keep : 0;
  const std::uint64_t n = std::min(run, room);
  return n >= least ? n : 0;
}

}  // namespace

CheckedFile check_source(InputSource& source, const std::string& path, std::string_view name,
                         const Limits& limits, FormatChoice format, MemoryBudget* budget) {
  auto validator = make_validator(format, name, limits, budget);
  std::optional<std::uint64_t> size = source.size();
  if (size) validator->set_total_size(*size);

  ReadBuffer buffer;
  std::uint64_t consumed = 0;
  bool tail = false;  // reading the last bytes, which the validator looks at after a skip
  bool to_end = false;  // a seek stopped at those last bytes, to be read in one piece
  std::size_t most = kChunk;  // the next read's bound: kReadAfterSeek after a long seek, doubling
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
    if ((tail || to_end) && consumed >= *size) break;
    if (const std::uint64_t run = size && !tail ? seek_run(*validator, source, *size, consumed, most) : 0) {
      if (auto error = source.skip(run)) return CheckedFile{path, std::nullopt, *error};
      consumed += run;
      if (validator->skip(run) == Progress::aborted) break;
      // Short of the last bytes, which the validator looks at whatever they hold (FK.polyglot's
      // window): those in one read, searched where they are, rather than in pieces it copies.
      to_end = *size - consumed <= validator->tail_wanted();
      if (run >= kChunk) most = kReadAfterSeek;
      continue;
    }
    const bool whole = tail || to_end;
    const std::uint64_t wanted = whole ? *size - consumed : validator->bytes_wanted();
    // Straight into the validator's own memory where it keeps the bytes (a safetensors header:
    // one read of all of it, and no second copy); otherwise into this buffer.
    std::span<std::byte> into = whole ? std::span<std::byte>() : validator->prepare(room_for(wanted, size.has_value()));
    if (!into.empty() && size) {
      // The read fills all of it: its pages in one call rather than a fault each inside read(2).
      populate(into.data(), 0, into.size());
    } else if (into.empty()) {
      into = buffer.room(size ? static_cast<std::size_t>(whole ? wanted : std::min<std::uint64_t>(most, wanted)) : kChunk);
    }
    most = std::min(kChunk, 2 * most);
    const SourceRead r = source.read(into, wanted);
    if (r.error) return CheckedFile{path, std::nullopt, *r.error};
    if (first && !size && (size = source.size())) validator->set_total_size(*size);  // before any feed
    if (r.bytes == 0) break;
    consumed += r.bytes;
    const Progress p = validator->feed(into.first(r.bytes));
    if (p == Progress::aborted) break;
    // The verdict is final and the rest could only be counted: what is established so far.
    if (p == Progress::invalid && !size && source.stop_when_final()) return CheckedFile{path, validator->snapshot(), std::nullopt};
    if (!size && source.may_never_end() && consumed >= limits.max_device_bytes) return device_cut_off(*validator, path, consumed);
  }
  buffer.release();  // before the canonical check and the report, which take its pages again
  return CheckedFile{path, validator->finish(), std::nullopt};
}

}  // namespace tensorgate::cli
