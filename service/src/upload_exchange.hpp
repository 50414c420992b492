#pragma once
// POST|PUT /v1/validate: one upload streamed into its validator (docs/architecture.md,
// "service/"). The exchange owns everything of the upload: the Upload (validator, counts), its
// parser, whose body reader hands every piece to put() below, the slot it takes, the digest and
// the reads into its blocks, the chunk count and the minimum-rate window. The session (the
// transport) starts it, asks it for the bytes received, and writes the answers it gives.
//
// A piece goes to the validator at once, unless it completes a heavy step (a large header's
// parse): then it and the pieces after it in the same read wait in the exchange, which runs
// their feed on a worker before it reads on ("header on a worker"). Every piece then goes to the
// digest.
//
// After each read the exchange goes on with the next step of the upload: the header on a
// worker, a wait for the digest's worker, the answer, or the next read. Completions from
// workers come back through the session (Session::resume) and find the exchange only while
// it is the session's current one.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string_view>

#include "block_read_buffer.hpp"
#include "hygiene.hpp"
#include "net.hpp"
#include "rate_window.hpp"
#include "upload.hpp"
#include "upload_body.hpp"
#include "upload_digest.hpp"
#include "upload_slot.hpp"

namespace tensorgate::service {

template <class Stream>
class Session;

template <class Stream>
class UploadExchange {
 public:
  UploadExchange(Session<Stream>& session, std::uint64_t epoch);
  UploadExchange(const UploadExchange&) = delete;
  UploadExchange& operator=(const UploadExchange&) = delete;

  // The header's checks, then the body: `head` is taken over once the upload is admitted.
  void start(HeadParser& head, std::string_view query);
  // The body's next bytes (also after `100 Continue`).
  void read();

  // The body bytes received so far (0 before the upload is admitted).
  std::uint64_t bytes_received() const { return upload_ ? upload_->bytes_received() : 0; }
  // The upload passed its checks: it took a slot and the full-size read buffer.
  bool admitted() const { return upload_ != nullptr; }

  // One piece of the body, from the parser's body reader. False when the body goes past
  // max_body_bytes.
  bool put(const void* data, std::size_t size);

 private:
  using Parser = http::request_parser<UploadBody<UploadExchange>>;
  // Reports up to this size are answered whole; larger ones are streamed (piece_body.hpp).
  static constexpr std::size_t kWholeReportBytes = 1 << 20;

  void read_in_place(UploadDigest& d);
  void detach_body_reads();
  void on_read(error_code ec, std::size_t n);
  // After a read, or a worker's step: what the upload does next.
  void advance();
  void parse_header_on_worker();
  bool chunks_too_small() const;
  // The upload's digest hashes its blocks on a worker (upload_digest.hpp); reading waits for it
  // only while no block is free, and at the end of the body.
  bool waits_for_digest();
  void start_digest_job();
  void resume_after_digest();
  void finish();
  void answer_early();
  void answer_report(Report report, bool complete);
  void answer_aborted(const Report& report);
  // The upload's reading is over once its answer starts: its slot goes back.
  void release_upload(bool keep_validator);
  // A handler that runs `f` on this exchange if it is still the session's current one.
  template <class F>
  auto resume(F f) {
    return session_.template resume<UploadExchange>(epoch_, f);
  }

  Session<Stream>& session_;
  ServiceContext& ctx_;
  const ServiceConfig& cfg_;
  const std::uint64_t epoch_;
  UploadSlot slot_;
  std::unique_ptr<Upload> upload_;
  // The piece that completes a large header and the pieces after it in the same read (at most
  // read-buffer-bytes): fed on a worker before the next read.
  std::string header_on_worker_;
  std::optional<UploadDigest> digest_;  // unless digest=none
  std::optional<Parser> parser_;
  std::optional<BlockReadBuffer> block_read_;  // a body read into the digest's blocks
  bool waiting_for_digest_ = false;  // reading paused until the digest job frees a block or ends
  std::optional<RateWindow> rate_;
  // Chunk headers of a chunked body, counted to bound the cost of tiny chunks.
  std::uint64_t chunks_ = 0;
  std::function<void(std::uint64_t, beast::string_view, error_code&)> count_chunk_ =
      [this](std::uint64_t, beast::string_view, error_code& ec) {
        ++chunks_;
        if (chunks_too_small()) ec = http::error::bad_chunk;
      };
};

}  // namespace tensorgate::service
