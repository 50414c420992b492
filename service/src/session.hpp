#pragma once
// One client connection (docs/architecture.md, "service/"): requests are read one at a time, each with a
// new parser; the header is checked before any body byte is read; an upload's body goes through
// UploadBody into the validator. Every read and write has a deadline.
//
// The class is a template over the stream so the fuzzer can drive the same code over
// beast::test::stream; session.cpp instantiates it for beast::tcp_stream.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "context.hpp"
#include "tensorgate/model_dir.hpp"
#include "exchange.hpp"
#include "hygiene.hpp"
#include "net.hpp"
#include "probe_reserve.hpp"
#include "problem.hpp"
#include "stream_ops.hpp"
#include "ui.hpp"
#include "block_read_buffer.hpp"
#include "upload.hpp"
#include "upload_body.hpp"

namespace tensorgate::service {

template <class Stream>
class Session : public std::enable_shared_from_this<Session<Stream>> {
 public:
  // `seat`: admitted past max_connections into the probes' reserve, for the probe routes only
  // (probe_reserve.hpp). `place`: what else the connection holds of the listener's capacity.
  // Both are released when the session ends.
  Session(ServiceContext& ctx, Stream&& stream, std::string remote, std::shared_ptr<ReserveSeat> seat = nullptr,
          std::shared_ptr<void> place = nullptr);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  void run();
  // Closes the connection (from any thread): the reserve needs its place.
  void evict();

 private:
  using Ops = StreamOps<Stream>;
  using HeadParser = http::request_parser<http::empty_body>;
  using UploadParser = http::request_parser<UploadBody>;
  using JsonParser = http::request_parser<http::string_body>;

  // session_read.ipp: waiting for a request, its header, the checks, the routing.
  void wait_request();
  void on_idle_read(error_code ec, std::size_t n);
  bool skip_empty_lines();
  void read_header();
  void on_header(error_code ec, std::size_t n);
  void handle_request();

  // session_upload.ipp: POST|PUT /v1/validate.
  void start_upload(std::string_view query);
  std::optional<Problem> refuse_upload(const RequestHeader& req);
  void send_continue();
  void read_body();
  void read_body_in_place(UploadDigest& d);
  void detach_body_reads();
  void on_body(error_code ec, std::size_t n);
  bool too_slow(std::uint64_t received);
  void answer_too_slow();  // 408, then close
  bool chunks_too_small() const;
  void finish_upload();
  // The upload's digest hashes its blocks on a worker (upload_digest.hpp); reading waits for it
  // only while no block is free, and at the end of the body.
  void start_digest_job();
  bool waits_for_digest();
  void resume_after_digest(std::uint64_t epoch);
  void answer_early();
  void answer_report(Report report, bool complete);
  void release_upload(bool keep_validator);
  // Reports up to this size are answered whole; larger ones are streamed (piece_body.hpp).
  static constexpr std::size_t kWholeReportBytes = 1 << 20;
  void answer_aborted(const Report& report);

  // session_check_model.ipp: POST /v1/check-model, a JSON body read whole (bounded).
  void start_check_model();
  void read_json_body();
  void on_json_body(error_code ec, std::size_t n);
  void answer_check_model();
  void answer_checked_model(const CheckModelResult& result);

  // Every deadline goes through here: a connection in the probes' reserve keeps the one deadline
  // set when it was accepted (probe_timeout), for its whole life.
  void set_deadline(Millis d);

  // session_write.ipp: answers, the end of an exchange, closing.
  void answer(Response&& res);
  void answer_problem(Problem p, std::string detail = {}, std::string_view limit = {});
  void answer_too_large(std::uint64_t limit);  // 413 body-too-large
  void answer_verdict(bool valid, std::string json_body);  // 200 or 422 with a report
  void answer_streamed(bool valid, std::unique_ptr<UploadReport> body);  // the same, in pieces
  // Keep-alive or close (always when `must_close`: a body that the close delimits), X-Request-Id;
  // true: close.
  template <class Message>
  bool set_connection_fields(Message& res, bool must_close = false);
  void start_writing();
  // The exchange's own share of the memory budget (a /v1/check-model body as it arrives, a
  // report until it is written), released when the exchange ends.
  bool hold(std::size_t total);        // raise the share to `total`; false when refused
  void hold_anyway(std::size_t bytes);  // add memory already taken (a built response)
  void release_held();
  void write_some_response();
  void on_write_some(error_code ec, std::size_t n);
  void on_write(error_code ec);
  void end_exchange(unsigned status, std::uint64_t bytes_sent, std::string_view note);
  void abort_exchange(unsigned status, std::string_view note, std::string_view timeout_phase);
  void graceful_close();
  void linger();
  void close_now();
  template <class F>
  auto bind(F f) {
    return beast::bind_front_handler(f, this->shared_from_this());
  }

  ServiceContext& ctx_;
  const ServiceConfig& cfg_;
  Stream stream_;
  std::string remote_;
  beast::flat_buffer buffer_;
  std::optional<HeadParser> head_;
  std::optional<UploadParser> body_;
  std::optional<JsonParser> json_;
  std::unique_ptr<Upload> upload_;  // outlives body_, whose reader points to it
  std::optional<BlockReadBuffer> block_read_;  // a body read into upload_'s digest blocks
  std::uint64_t upload_epoch_ = 0;  // which upload a finished digest job belongs to
  bool waiting_for_digest_ = false;  // on_body returned until the digest job is done
  bool holds_upload_slot_ = false;
  std::optional<Response> res_;
  std::optional<http::response_serializer<http::string_body>> sr_;
  std::optional<StreamedResponse> streamed_;  // a streamed report instead of res_
  std::optional<http::response_serializer<PieceBody>> streamed_sr_;
  bool close_after_write_ = false;
  std::uint64_t written_ = 0;            // bytes of the response written so far
  std::size_t held_ = 0;                 // see hold()
  Clock::time_point write_window_start_{};
  std::uint64_t write_window_bytes_ = 0;
  std::optional<http::response<http::empty_body>> continue_;
  Exchange ex_;
  // Chunk headers of the upload's chunked body, counted to bound the cost of tiny chunks.
  std::uint64_t chunks_ = 0;
  std::function<void(std::uint64_t, beast::string_view, error_code&)> count_chunk_ =
      [this](std::uint64_t, beast::string_view, error_code& ec) {
        ++chunks_;
        if (chunks_too_small()) ec = http::error::bad_chunk;
      };
  std::uint32_t served_ = 0;
  std::size_t skipped_empty_ = 0;  // line breaks skipped before this request's line
  std::shared_ptr<ReserveSeat> seat_;  // in the probes' reserve: probe routes only, one request
  std::shared_ptr<void> place_;
  std::uint64_t lingered_ = 0;
};

}  // namespace tensorgate::service

#include "session_read.ipp"
#include "session_upload.ipp"
#include "session_check_model.ipp"
#include "session_write.ipp"
