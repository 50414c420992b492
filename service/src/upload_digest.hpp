#pragma once
// An upload's SHA-256, hashed on a worker thread while the session reads the next bytes.
//
// Why: hashed inline, the event-loop thread reads, validates and hashes each piece in turn, so
// a streamed upload with the digest ran at half of SHA-256's own speed (issue 19). Here the
// body's bytes are copied into a fill block (a copy costs a tenth of hashing them); a full block
// joins a queue that one job at a time drains on a worker, in order, block after block, without
// going back to the session between them. A block per job, the worker slept at every block
// while its completion went through the session's event loop and the next job came back
// through the pool's: two wake-ups of ~0.1 ms on a VM against 0.65 ms of hashing.
//
// Bounded: `kBlocks` blocks in all (the one being filled, the rest queued or being hashed), each
// one block plus one read (a read lands whole in the fill block even when it passes the block).
// When none is free the session reads no more until the job frees one (`ready_for_more`), and
// the job then calls back once.
//
// Small uploads never start a job: the first `kInlineBytes` are hashed inline, and only a body
// that goes past them takes the blocks (charged to the memory budget; refused, it stays
// inline). The state a job touches lives in a shared object, so a job outlives an upload that
// was answered early or abandoned.
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "tensorgate/memory_budget.hpp"
#include "tensorgate/sha256.hpp"

namespace tensorgate::service {

class UploadDigest {
 public:
  static constexpr std::size_t kInlineBytes = 1 << 20;
  static constexpr std::size_t kBlockBytes = 1 << 20;
  // Four: the worker finds the next block queued while the session's thread wakes up; eight
  // gained ~5% on loopback, within its noise, for twice the memory (bench/README.md, "Upload
  // digest").
  static constexpr std::size_t kBlocks = 4;

  UploadDigest(MemoryBudget* budget, std::size_t max_read_bytes);
  UploadDigest(const UploadDigest&) = delete;
  UploadDigest& operator=(const UploadDigest&) = delete;

  // The body's next bytes, in order (the session's thread): one read's, perhaps in pieces.
  void put(const void* data, std::size_t size);

  // After each read: a full fill block joins the queue and a free one takes its place. False
  // when none is free: read no more. The running job then calls its `freed` once it frees a
  // block, and asking again succeeds.
  bool ready_for_more();

  // Full blocks are queued and no job drains them: the job to post to a worker. It hashes
  // queued blocks until none is left. `freed` runs on the worker (see ready_for_more); it must
  // only post back to the session.
  bool job_ready() const;
  std::function<void()> take_job(std::function<void()> freed);

  // A job runs or blocks wait for one: finish() must wait for the job's end.
  bool busy() const;

  // Lowercase hex of the whole body's digest. Only when !busy().
  std::string finish();

 private:
  using Block = std::vector<char>;
  struct Shared {
    mutable std::mutex m;
    Sha256 sha;             // the job's, while one runs
    std::vector<Block> full;  // blocks to hash, in order after every byte hashed so far (a
                              // queue of at most kBlocks; no std::deque, which allocates empty)
    std::vector<Block> spare;  // hashed, their capacity kept
    bool running = false;      // a job drains `full`
    bool wants_block = false;  // the session waits for a spare block
    MemoryBudget* budget = nullptr;
    std::size_t charged = 0;  // every block, given back when the last owner (upload or job) ends
    ~Shared() {
      if (budget && charged) budget->release(charged);
    }
  };
  static void drain(Shared& s, const std::function<void()>& freed);
  void start_pipeline();

  MemoryBudget* budget_;
  std::size_t max_read_;
  std::uint64_t seen_ = 0;
  bool pipelined_ = false;
  bool tried_ = false;  // the budget was asked once (refused: inline to the end)
  std::shared_ptr<Shared> shared_ = std::make_shared<Shared>();
  Block fill_;  // bytes not hashed yet, in order after those of the queued blocks
  bool has_fill_ = false;  // fill_ is a block (false while every block is queued or hashed)
};

}  // namespace tensorgate::service
