#pragma once
// An upload's SHA-256, hashed on a worker thread while the upload's exchange
// (upload_exchange.hpp) reads the next bytes.
//
// Why: hashed inline, the event-loop thread reads, validates and hashes each piece in turn, so
// a streamed upload with the digest ran at half of SHA-256's own speed. Here the
// body is read into blocks; a full block joins a queue that one job at a time drains on a
// worker, in order, block after block, without going back to the session between them. A block
// per job, the worker slept at every block while its completion went through the session's event
// loop and the next job came back through the pool's: two wake-ups of ~0.1 ms on a VM against
// 0.65 ms of hashing.
//
// Read in place: once the blocks are taken, the exchange reads the body straight into the fill
// block (BlockReadBuffer, a Beast DynamicBuffer over the calls below), so each body byte is
// copied once, from the socket, not a second time from the read buffer into a block: that copy
// ran on the core the reads (and on loopback the client) need, and removing it took the loopback
// digest from 73% to 88% of SHA-256's own speed (bench/README.md, "Upload digest"; Beast's 64 KiB
// reads became reads of up to a block). The block then holds what was read: the body and, in a
// chunked body, the chunk headers between its pieces. The bytes to hash are kept as one run: a
// piece that does not follow the run (a chunk header came between) is moved down to join it,
// over the header the parser has already passed. So a Content-Length body is not copied after
// the socket's copy, a chunked body is copied once more as before, and no list of pieces grows
// with tiny chunks.
//
// Bounded: `kBlocks` blocks in all (the one being filled, the rest queued or being hashed), each
// one block plus one read (the read that passes kBlockBytes lands whole). When none is free the
// exchange reads no more until the job frees one (`ready_for_more`), and the job then calls back
// once.
//
// Small uploads never start a job: the first `kInlineBytes` are hashed inline, and only a body
// that goes past them takes the blocks (charged to the memory budget; refused, it stays
// inline). The state a job touches lives in a shared object, so a job outlives an upload that
// was answered early or abandoned.
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
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

  // `max_read_bytes`: read-buffer-bytes, the most the session's buffer holds when attach() takes
  // its bytes, and the most a chunked body's unparsed bytes reach after (block_read_buffer.hpp).
  // Each block has that much room past kBlockBytes, so a read always fits.
  UploadDigest(MemoryBudget* budget, std::size_t max_read_bytes);
  UploadDigest(const UploadDigest&) = delete;
  UploadDigest& operator=(const UploadDigest&) = delete;

  // The body's next bytes, in order (the connection's thread). Before attach() they are anywhere
  // and hashed inline; after it they lie in unparsed(), where they may be moved (see above): a
  // caller that needs them reads them before this call.
  void put(const void* data, std::size_t size);

  // The blocks are taken (the body went past kInlineBytes) and the reads still go to the
  // session's buffer: attach() moves that buffer's unparsed bytes (at most one read) into the
  // fill block, and from then on every read goes there.
  bool wants_attach() const { return pipelined_ && !attached_; }
  void attach(const char* unparsed, std::size_t size);
  bool attached() const { return attached_; }

  // The fill block as a read buffer (attached only): bytes read and not yet parsed, and the
  // room after them (at least one read's worth, ready_for_more() sees to it).
  std::span<const char> unparsed() const { return {fill_.bytes.get() + in_, out_ - in_}; }
  std::span<char> room() { return {fill_.bytes.get() + out_, block_capacity() - out_}; }
  void commit(std::size_t n) { out_ += n; }
  void consume(std::size_t n) { in_ += n; }

  // After each read: a fill block past kBlockBytes joins the queue and a free one takes its place
  // (with the unparsed bytes). False when none is free: read no more. The running job then calls
  // its `freed` once it frees a block, and asking again succeeds.
  bool ready_for_more();

  // Full blocks are queued and no job drains them: the job to post to a worker. It hashes
  // queued blocks until none is left. `freed` runs on the worker (see ready_for_more); it must
  // only post back to the connection's thread.
  bool job_ready() const;
  std::function<void()> take_job(std::function<void()> freed);

  // A job runs or blocks wait for one: finish() must wait for the job's end.
  bool busy() const;

  // Lowercase hex of the whole body's digest. Only when !busy().
  std::string finish();

 private:
  struct Block {
    std::unique_ptr<char[]> bytes;  // block_capacity() bytes, never zero-filled
    std::size_t begin = 0, end = 0;  // the body bytes to hash, one run (empty: begin == end)
  };
  struct Shared {
    mutable std::mutex m;
    Sha256 sha;               // the job's, while one runs
    std::vector<Block> full;  // blocks to hash, in order after every byte hashed so far (a
                              // queue of at most kBlocks; no std::deque, which allocates empty)
    std::vector<Block> spare;  // hashed, their memory kept
    bool running = false;      // a job drains `full`
    bool wants_block = false;  // the exchange waits for a spare block
    MemoryBudget* budget = nullptr;
    std::size_t charged = 0;  // every block, given back when the last owner (upload or job) ends
    ~Shared() {
      if (budget && charged) budget->release(charged);
    }
  };
  static void drain(Shared& s, const std::function<void()>& freed);
  // Each block: kBlockBytes and one read.
  std::size_t block_capacity() const { return kBlockBytes + max_read_; }
  void start_pipeline();
  void take_piece(const char* data, std::size_t size);

  MemoryBudget* budget_;
  std::size_t max_read_;
  std::uint64_t seen_ = 0;
  bool pipelined_ = false;
  bool attached_ = false;
  bool tried_ = false;  // the budget was asked once (refused: inline to the end)
  std::shared_ptr<Shared> shared_ = std::make_shared<Shared>();
  Block fill_;  // the block being read into: its run is hashed after the queued blocks'
  std::size_t in_ = 0, out_ = 0;  // fill_'s bytes [in_, out_) are read and not yet parsed
};

}  // namespace tensorgate::service
