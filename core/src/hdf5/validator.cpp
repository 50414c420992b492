#include "hdf5/validator.hpp"

#include <cassert>

#include "common/report_of.hpp"
#include "hdf5/kr_keras.hpp"

namespace tensorgate {
namespace detail::hdf5 {
namespace {

std::string num(std::uint64_t v) { return std::to_string(v); }

const char* region_name(RegionKind k) {
  switch (k) {
    case RegionKind::signature: return "the HDF5 signature";
    case RegionKind::superblock: return "the superblock";
    case RegionKind::header: return "the root group's object header";
    case RegionKind::continuation: return "a continuation block of the root group's object header";
    case RegionKind::collection: return "a global heap collection";
  }
  return "a region";
}

}  // namespace

Hdf5Validator::Hdf5Validator(const Limits& limits, MemoryBudget* budget)
    : limits_(limits), findings_(limits.max_findings), memory_(budget) {
  regions_.add(Region{0, kSignature.size(), RegionKind::signature, 0, {}});
}

Progress Hdf5Validator::feed(std::span<const std::byte> chunk) {
  if (finished_) return progress();
  bytes_seen_ += chunk.size();
  std::string_view rest(reinterpret_cast<const char*>(chunk.data()), chunk.size());
  while (!rest.empty()) {
    if (!reading()) {  // nothing more to read: the rest is only counted
      regions_.skip(rest.size());
      break;
    }
    const auto n = static_cast<std::size_t>(regions_.step(rest.size()));
    const std::uint64_t held = regions_.take(rest.substr(0, n));
    rest.remove_prefix(n);
    if (held && !hold(held)) break;
    settle();
  }
  return progress();
}

Progress Hdf5Validator::skip(std::uint64_t count) {
  assert((!reading() || count <= regions_.gap()) && "skip() only past the bytes the validator looks at");
  if (finished_) return progress();
  bytes_seen_ += count;
  // A caller that skips bytes a region needs leaves it with a hole: no guess, no verdict.
  if (reading() && count > regions_.gap())
    abort_with("hdf5-skipped", "bytes the reader needed were skipped by the caller; the file is not checked");
  regions_.skip(count);
  return progress();
}

Report Hdf5Validator::finish() {
  if (finished_) return report();
  finished_ = true;
  if (reading()) {
    // The first region the input ended in (or before): the file is shorter than it says.
    const Region* first = nullptr;
    for (const Region& r : regions_.pending())
      if (!first || r.address < first->address) first = &r;
    const std::string what = first->kind == RegionKind::signature && first->address > 0
                                 ? "the HDF5 signature, searched at byte 0 and after user blocks up to byte " + num(first->address)
                                 : std::string(region_name(first->kind)) + " at byte " + num(first->address);
    fail("the file ends at byte " + num(bytes_seen_) + ", before the end of " + what + " (" + num(first->length) + " bytes)",
         first->address);
  } else if (!stopped_ && superblock_ && bytes_seen_ < superblock_->eof) {
    // The end-of-file address is the one absolute address: it counts the user block.
    fail("the file ends at byte " + num(bytes_seen_) + ", before the end-of-file address its superblock gives (byte " +
             num(superblock_->eof) + "): a truncated file, which HDF5 refuses to open",
         bytes_seen_);
  }
  return report();
}

Progress Hdf5Validator::progress() const {
  if (aborted_) return Progress::aborted;
  return findings_.has_errors() ? Progress::invalid : Progress::need_more;
}

Report Hdf5Validator::report() const {
  Report r = report_of(Format::hdf5, bytes_seen_, findings_, aborted_);
  if (!superblock_) return r;
  Hdf5Summary s = summary_;
  for (const KeptAttribute& a : attributes_)
    if (a.listed) s.attributes.push_back(a.row);
  r.summary = std::move(s);
  return r;
}

// --- regions ------------------------------------------------------------------------------------

void Hdf5Validator::settle() {
  for (int i; !stopped_ && (i = regions_.next_complete()) >= 0;) {
    if (grow(regions_.at(i))) continue;
    if (stopped_) break;
    process(regions_.release(i));
  }
  if (!stopped_ && regions_.empty() && !judged_) all_read();
}

bool Hdf5Validator::request(Region r, const char* what) {
  if (r.address < regions_.position()) {
    abort_with("hdf5-backward", std::string(what) + " is at byte " + num(r.address) + ", before byte " +
                                    num(regions_.position()) +
                                    ", which the reader has passed: it reads the file once, in order, and keeps only the "
                                    "regions it knows it needs; the file is not checked");
    return false;
  }
  if (!claim(r.length)) return false;
  regions_.add(std::move(r));
  return true;
}

bool Hdf5Validator::extend(Region& r, std::uint64_t length, std::uint32_t stage) {
  r.stage = stage;
  if (length <= r.bytes.size()) {
    r.bytes.resize(static_cast<std::size_t>(length));
  } else if (!claim(length - r.length)) {
    return true;
  }
  r.length = length;
  return true;
}

bool Hdf5Validator::claim(std::uint64_t bytes) {
  const std::uint64_t cap = limits_.hdf5.max_metadata_bytes;
  if (bytes > cap - std::min(cap, metadata_claimed_)) {
    abort_with("hdf5-metadata-bytes", "the file's metadata needs more than Limits::hdf5.max_metadata_bytes (" + num(cap) +
                                          " bytes); the file is not checked");
    return false;
  }
  metadata_claimed_ += bytes;
  return true;
}

// Charged as the bytes arrive, not when a region is asked for: a file that claims a large block
// holds nothing of the budget until it sends the bytes.
bool Hdf5Validator::hold(std::uint64_t bytes) {
  if (memory_.add(bytes)) return true;
  abort_with("hdf5-memory-budget", "no memory left in the shared budget for the file's metadata", AbortKind::memory_budget);
  return false;
}

std::optional<std::uint64_t> Hdf5Validator::absolute(std::uint64_t relative, const char* what, std::uint64_t offset) {
  if (relative == kUndefined) {
    fail(std::string(what) + " has no address (the undefined address)", offset);
    return std::nullopt;
  }
  if (relative > kUndefined - base_ - (std::uint64_t{1} << 32)) {
    fail(std::string(what) + " is at address " + num(relative) + ", past any file", offset);
    return std::nullopt;
  }
  return base_ + relative;
}

void Hdf5Validator::fail(std::string message, std::uint64_t offset) {
  findings_.add(Rule::kr_hdf5, std::move(message), offset);
  stopped_ = true;
  regions_.clear();
}

void Hdf5Validator::abort_with(std::string limit, std::string message, AbortKind kind) {
  if (!aborted_) aborted_ = Aborted{std::move(limit), std::move(message), kind};
  stopped_ = true;
  regions_.clear();
}

void Hdf5Validator::fault(const Fault& f, const std::string& where, std::uint64_t offset) {
  if (f.kind == Fault::malformed) fail(where + ": " + f.message, offset);
  else abort_with("hdf5-unsupported", where + ": " + f.message + "; the file is not checked");
}

// --- what the regions say -----------------------------------------------------------------------

// A region's first bytes give its length: it grows in place (true), or it is whole (false).
bool Hdf5Validator::grow(Region& r) {
  switch (r.kind) {
    case RegionKind::signature:
      if (std::string_view(r.bytes) != kSignature) return false;
      r.kind = RegionKind::superblock;
      return extend(r, kSuperblockHead, 0);
    case RegionKind::superblock: {
      if (r.stage > 0) return false;
      std::uint64_t size = 0;
      if (Fault f = superblock_size(r.bytes, size)) {
        fault(f, "the superblock at byte " + num(r.address), r.address);
        return true;
      }
      return extend(r, size, 1);
    }
    case RegionKind::header: {
      if (r.stage > 0) return false;
      std::size_t need = 0;
      if (Fault f = header_prefix(r.bytes, header_, need)) {
        fault(f, "the root group's object header at byte " + num(r.address), r.address);
        return true;
      }
      if (need > 0) return extend(r, need, 0);
      return extend(r, header_.total, 1);
    }
    case RegionKind::collection: {
      if (r.stage > 0) return false;
      std::uint64_t size = 0;
      if (Fault f = collection_size(r.bytes, summary_.length_size, size)) {
        fault(f, "the global heap collection at byte " + num(r.address), r.address);
        return true;
      }
      return extend(r, size, 1);
    }
    case RegionKind::continuation: return false;
  }
  return false;
}

void Hdf5Validator::process(Region r) {
  switch (r.kind) {
    case RegionKind::signature: {
      // Not here: the next place a user block may end (HDF5 looks at 0, 512, 1024, 2048, ...).
      const std::uint64_t next = r.address == 0 ? 512 : 2 * r.address;
      if (next > limits_.hdf5.max_user_block) {
        return abort_with("hdf5-user-block", "no HDF5 signature at byte 0 nor after a user block of up to " +
                                                 num(limits_.hdf5.max_user_block) +
                                                 " bytes (Limits::hdf5.max_user_block); the file is not checked");
      }
      request(Region{next, kSignature.size(), RegionKind::signature, 0, {}}, "the HDF5 signature");
      return;
    }
    case RegionKind::superblock: return on_superblock(r);
    case RegionKind::header: return on_header(r);
    case RegionKind::continuation: return on_continuation(r);
    case RegionKind::collection: return on_collection(r);
  }
}

void Hdf5Validator::on_superblock(Region& r) {
  Superblock sb;
  if (Fault f = parse_superblock(r.bytes, sb)) return fault(f, "the superblock at byte " + num(r.address), r.address);
  superblock_ = sb;
  base_ = r.address;
  summary_.superblock_version = sb.version;
  summary_.user_block = r.address;
  summary_.offset_size = sb.offset_size;
  summary_.length_size = sb.length_size;
  const auto root = absolute(sb.root, "the root group's object header", r.address);
  if (!root) return;
  summary_.root_header = *root;
  chunks_.emplace_back(*root, kHeaderHead);
  request(Region{*root, kHeaderHead, RegionKind::header, 0, {}}, "the root group's object header");
}

void Hdf5Validator::on_header(Region& r) {
  if (header_.version == 2 && !checksum_ok(r.bytes))
    return fail("the root group's object header at byte " + num(r.address) + ": its checksum does not match its bytes", r.address);
  summary_.root_header_version = header_.version;
  chunks_.front().second = r.length;
  read_messages(std::string_view(r.bytes).substr(header_.prefix, static_cast<std::size_t>(header_.chunk)),
                r.address + header_.prefix);
}

void Hdf5Validator::on_continuation(Region& r) {
  std::string_view messages = r.bytes;
  if (header_.version == 2) {
    if (messages.substr(0, 4) != "OCHK" || !checksum_ok(messages))
      return fail("the continuation block at byte " + num(r.address) + " has no OCHK signature or its checksum does not match",
                  r.address);
    messages = messages.substr(4, messages.size() - 8);
  }
  read_messages(messages, r.address + (header_.version == 2 ? 4 : 0));
}

void Hdf5Validator::on_collection(Region& r) {
  collections_.emplace_back(r.address, std::move(r.bytes));
  resolve_waiting(collections_.back().first, collections_.back().second);
}

}  // namespace detail::hdf5

std::unique_ptr<Validator> make_hdf5_validator(const Limits& limits, MemoryBudget* budget) {
  return std::make_unique<detail::hdf5::Hdf5Validator>(limits, budget);
}

}  // namespace tensorgate
