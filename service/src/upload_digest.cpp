#include "upload_digest.hpp"

namespace tensorgate::service {

UploadDigest::UploadDigest(MemoryBudget* budget, std::size_t max_read_bytes)
    : budget_(budget), max_read_(max_read_bytes) {}

// Past kInlineBytes: every block at once, each one block plus one read. Reserved, not touched:
// a block's pages are faulted in when it is first filled.
void UploadDigest::start_pipeline() {
  tried_ = true;
  const std::size_t each = kBlockBytes + max_read_;
  if (budget_ && !budget_->try_acquire(kBlocks * each)) return;
  shared_->budget = budget_;
  shared_->charged = budget_ ? kBlocks * each : 0;
  fill_.reserve(each);
  has_fill_ = true;
  shared_->spare.resize(kBlocks - 1);
  for (Block& b : shared_->spare) b.reserve(each);
  pipelined_ = true;
}

void UploadDigest::put(const void* data, std::size_t size) {
  const auto* bytes = static_cast<const char*>(data);
  if (!tried_ && seen_ + size > kInlineBytes) start_pipeline();
  seen_ += size;
  if (!pipelined_) return shared_->sha.update(bytes, size);
  fill_.insert(fill_.end(), bytes, bytes + size);
}

bool UploadDigest::ready_for_more() {
  // Most reads: the fill block has room, and nothing shared is touched.
  if (!pipelined_ || (has_fill_ && fill_.size() < kBlockBytes)) return true;
  std::lock_guard lock(shared_->m);
  if (has_fill_ && fill_.size() >= kBlockBytes) {
    shared_->full.push_back(std::move(fill_));
    has_fill_ = false;
  }
  if (has_fill_) return true;
  if (shared_->spare.empty()) {
    shared_->wants_block = true;
    return false;
  }
  fill_ = std::move(shared_->spare.back());  // empty, its capacity kept
  shared_->spare.pop_back();
  has_fill_ = true;
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
    s.sha.update(block.data(), block.size());
    block.clear();
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
  if (!fill_.empty()) shared_->sha.update(fill_.data(), fill_.size());
  fill_.clear();
  return shared_->sha.hex_digest();
}

}  // namespace tensorgate::service
