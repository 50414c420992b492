#pragma once
// An upload's SHA-256, hashed on a worker thread while the session reads the next bytes.
//
// Why: hashed inline, the event-loop thread reads, validates and hashes each piece in turn, so
// a streamed upload with the digest ran at half of SHA-256's own speed (issue 19). Here the
// body's bytes are copied into a fill buffer (a copy costs a tenth of hashing them); once a
// block is full it is swapped with the buffer a worker hashes, at most one job per upload at a
// time, in order. The session stops reading while the fill buffer is full and the worker has
// not finished (`must_wait`), so the buffers stay bounded: two blocks plus one read.
//
// Small uploads never start a job: the first `kInlineBytes` are hashed inline, and only a body
// that goes past them takes the buffers (charged to the memory budget; refused, it stays
// inline). The state a job touches lives in a shared object, so a job outlives an upload that
// was answered early or abandoned.
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tensorgate/memory_budget.hpp"
#include "tensorgate/sha256.hpp"

namespace tensorgate::service {

class UploadDigest {
 public:
  static constexpr std::size_t kInlineBytes = 1 << 20;
  static constexpr std::size_t kBlockBytes = 1 << 20;

  UploadDigest(MemoryBudget* budget, std::size_t max_read_bytes);
  UploadDigest(const UploadDigest&) = delete;
  UploadDigest& operator=(const UploadDigest&) = delete;

  // The body's next bytes, in order (the session's thread).
  void put(const void* data, std::size_t size);

  // A block is full and no job runs: the job to post to a worker. The caller runs it once and
  // calls job_done() on the session's thread afterwards.
  bool job_ready() const { return !busy_ && fill_.size() >= kBlockBytes; }
  std::function<void()> take_job();
  void job_done() { busy_ = false; }
  bool busy() const { return busy_; }
  // The fill buffer is full and the worker still hashes: read no more until job_done().
  bool must_wait() const { return busy_ && fill_.size() >= kBlockBytes; }

  // Lowercase hex of the whole body's digest. Only when no job runs.
  std::string finish();

 private:
  struct Shared {
    Sha256 sha;
    std::vector<char> hashing;  // the block a job hashes
    MemoryBudget* budget = nullptr;
    std::size_t charged = 0;  // both buffers, given back when the last owner (upload or job) ends
    ~Shared() {
      if (budget && charged) budget->release(charged);
    }
  };
  void start_pipeline();

  MemoryBudget* budget_;
  std::size_t max_read_;
  std::uint64_t seen_ = 0;
  bool pipelined_ = false;
  bool tried_ = false;  // the budget was asked once (refused: inline to the end)
  bool busy_ = false;
  std::shared_ptr<Shared> shared_ = std::make_shared<Shared>();
  std::vector<char> fill_;  // bytes not hashed yet, in order after those of `hashing`
};

}  // namespace tensorgate::service
