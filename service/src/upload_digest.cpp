#include "upload_digest.hpp"

namespace tensorgate::service {

UploadDigest::UploadDigest(MemoryBudget* budget, std::size_t max_read_bytes)
    : budget_(budget), max_read_(max_read_bytes) {}

// Past kInlineBytes: both buffers, each one block plus one read (a read lands whole in the
// fill buffer even when it passes the block).
void UploadDigest::start_pipeline() {
  tried_ = true;
  const std::size_t each = kBlockBytes + max_read_;
  if (budget_ && !budget_->try_acquire(2 * each)) return;
  shared_->budget = budget_;
  shared_->charged = budget_ ? 2 * each : 0;
  fill_.reserve(each);
  shared_->hashing.reserve(each);
  pipelined_ = true;
}

void UploadDigest::put(const void* data, std::size_t size) {
  const auto* bytes = static_cast<const char*>(data);
  if (!tried_ && seen_ + size > kInlineBytes) start_pipeline();
  seen_ += size;
  if (!pipelined_) return shared_->sha.update(bytes, size);
  fill_.insert(fill_.end(), bytes, bytes + size);
}

std::function<void()> UploadDigest::take_job() {
  busy_ = true;
  shared_->hashing.swap(fill_);  // the last job left `hashing` empty, its capacity kept
  return [shared = shared_] {
    shared->sha.update(shared->hashing.data(), shared->hashing.size());
    shared->hashing.clear();
  };
}

std::string UploadDigest::finish() {
  if (!fill_.empty()) shared_->sha.update(fill_.data(), fill_.size());
  fill_.clear();
  return shared_->sha.hex_digest();
}

}  // namespace tensorgate::service
