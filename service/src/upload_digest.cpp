#include "upload_digest.hpp"

#include <cassert>
#include <cstring>

namespace tensorgate::service {

UploadDigest::UploadDigest(MemoryBudget* budget, std::size_t max_read_bytes)
    : budget_(budget), max_read_(max_read_bytes) {}

// Past kInlineBytes: every block at once, each one block plus one read. Not touched: a block's
// pages are faulted in when it is first read into.
void UploadDigest::start_pipeline() {
  tried_ = true;
  const std::size_t each = block_capacity();
  if (budget_ && !budget_->try_acquire(kBlocks * each)) return;
  shared_->budget = budget_;
  shared_->charged = budget_ ? kBlocks * each : 0;
  fill_.bytes = std::make_unique_for_overwrite<char[]>(each);
  shared_->spare.resize(kBlocks - 1);
  for (Block& b : shared_->spare) b.bytes = std::make_unique_for_overwrite<char[]>(each);
  pipelined_ = true;
}

void UploadDigest::put(const void* data, std::size_t size) {
  const auto* bytes = static_cast<const char*>(data);
  if (!tried_ && seen_ + size > kInlineBytes) start_pipeline();
  seen_ += size;
  // Until attach() no job runs (nothing is queued), so inline hashing keeps the order.
  if (!attached_) return shared_->sha.update(bytes, size);
  take_piece(bytes, size);
}

// A piece of the body, read into the fill block: it joins the block's run, moved down over
// the bytes between them when it does not follow it. Those bytes were parsed (a chunk header
// the parser has passed to reach this piece), and nothing after the piece is touched.
void UploadDigest::take_piece(const char* data, std::size_t size) {
  char* base = fill_.bytes.get();
  assert(data >= base + in_ && data + size <= base + out_);
  const auto at = static_cast<std::size_t>(data - base);
  if (fill_.begin == fill_.end) fill_.begin = fill_.end = at;  // the block's first piece
  if (at != fill_.end) std::memmove(base + fill_.end, data, size);
  fill_.end += size;
}

void UploadDigest::attach(const char* unparsed, std::size_t size) {
  assert(wants_attach() && size <= max_read_);
  if (size) std::memcpy(fill_.bytes.get(), unparsed, size);  // an empty buffer's data may be null
  in_ = 0;
  out_ = size;
  attached_ = true;
}

bool UploadDigest::ready_for_more() {
  // Most reads: the fill block has room, and nothing shared is touched.
  if (!attached_ || out_ < kBlockBytes) return true;
  std::lock_guard lock(shared_->m);
  if (shared_->spare.empty()) {
    shared_->wants_block = true;
    return false;
  }
  Block next = std::move(shared_->spare.back());
  shared_->spare.pop_back();
  // The unparsed bytes (a partial chunk header, at most read-buffer-bytes) go first in the new
  // block.
  const std::size_t rest = out_ - in_;
  std::memcpy(next.bytes.get(), fill_.bytes.get() + in_, rest);
  next.begin = next.end = 0;
  shared_->full.push_back(std::move(fill_));
  fill_ = std::move(next);
  in_ = 0;
  out_ = rest;
  return true;
}

bool UploadDigest::job_ready() const {
  std::lock_guard lock(shared_->m);
  return !shared_->running && !shared_->full.empty();
}

std::function<void()> UploadDigest::take_job(std::function<void()> freed) {
  {
    std::lock_guard lock(shared_->m);
    shared_->running = true;
  }
  return [shared = shared_, freed = std::move(freed)] { drain(*shared, freed); };
}

// On the worker: the queue's blocks in order, the lock never held while hashing.
void UploadDigest::drain(Shared& s, const std::function<void()>& freed) {
  std::unique_lock lock(s.m);
  while (!s.full.empty()) {
    Block block = std::move(s.full.front());
    s.full.erase(s.full.begin());
    lock.unlock();
    s.sha.update(block.bytes.get() + block.begin, block.end - block.begin);
    lock.lock();
    s.spare.push_back(std::move(block));
    if (s.wants_block) {
      s.wants_block = false;
      freed();
    }
  }
  s.running = false;
}

bool UploadDigest::busy() const {
  std::lock_guard lock(shared_->m);
  return shared_->running || !shared_->full.empty();
}

std::string UploadDigest::finish() {
  { std::lock_guard lock(shared_->m); }  // the last job's hashing happens before this thread's
  if (attached_) shared_->sha.update(fill_.bytes.get() + fill_.begin, fill_.end - fill_.begin);
  fill_.begin = fill_.end = 0;
  return shared_->sha.hex_digest();
}

}  // namespace tensorgate::service
