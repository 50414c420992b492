// Session, the transport: reading a request's header, the hygiene checks and routing; answers,
// whole or streamed, the end of an exchange, keep-alive, closing and lingering.
#include "session.hpp"

#include <type_traits>

#include "session_streams.hpp"
#include "ui.hpp"

namespace tensorgate::service {

// A header is read into a small buffer; the full read buffer is reserved only for request bodies
// (upload_exchange.cpp, check_model_exchange.cpp), so a thousand idle connections stay cheap.
inline constexpr std::size_t kHeaderReadBytes = 4096;

template <class Stream>
Session<Stream>::Session(ServiceContext& ctx, Stream&& stream, std::string remote, std::shared_ptr<ReserveSeat> seat,
                         std::shared_ptr<void> place)
    : ctx_(ctx), cfg_(ctx.config), stream_(std::move(stream)), remote_(std::move(remote)),
      buffer_(ctx.config.read_buffer_bytes), seat_(std::move(seat)), place_(std::move(place)) {
  ctx_.metrics.connections_open.fetch_add(1);
}

template <class Stream>
Session<Stream>::~Session() {
  release_held();
  ctx_.metrics.connections_open.fetch_sub(1);
}

template <class Stream>
void Session<Stream>::run() {
  net::dispatch(stream_.get_executor(), [self = this->shared_from_this()] {
    // A connection in the reserve lives at most probe_timeout from here, however it behaves.
    if (self->seat_) Ops::set_deadline(self->stream_, self->cfg_.probe_timeout);
    self->wait_request();
  });
}

template <class Stream>
void Session<Stream>::evict() {
  net::post(stream_.get_executor(), [self = this->shared_from_this()] { self->close_now(); });
}

template <class Stream>
void Session<Stream>::set_deadline(Millis d) {
  if (!seat_) Ops::set_deadline(stream_, d);
}

template <class Stream>
void Session<Stream>::wait_request() {
  head_.emplace();
  head_->header_limit(cfg_.max_request_header_bytes);
  // Beast's default 1 MB body limit is checked against Content-Length while the header is
  // parsed: off here; the upload checks its own limit (max_body_bytes).
  head_->body_limit(boost::none);
  skipped_empty_ = 0;
  if (buffer_.size() > 0 && (skip_empty_lines(), buffer_.size() > 0)) return read_header();  // pipelined
  // Before the first request, the header deadline; between requests, the keep-alive one.
  set_deadline(served_ == 0 ? cfg_.header_timeout : cfg_.keepalive_timeout);
  stream_.async_read_some(buffer_.prepare(kHeaderReadBytes), bind(&Session::on_idle_read));
}

template <class Stream>
void Session<Stream>::on_idle_read(error_code ec, std::size_t n) {
  buffer_.commit(n);
  if (ec) {
    if (ec == beast::error::timeout)
      ctx_.metrics.timeouts.add(label("phase", served_ == 0 ? "header" : "idle"));
    return close_now();
  }
  if (skip_empty_lines() && buffer_.size() == 0) {
    // Only line breaks so far: read on, under the same deadline (no reset: a stream of empty
    // lines cannot hold the connection).
    stream_.async_read_some(buffer_.prepare(kHeaderReadBytes), bind(&Session::on_idle_read));
    return;
  }
  read_header();
}

// RFC 9112 2.2: a server should ignore at least one empty line (CRLF) before a request line.
// Up to kMaxEmptyLineBytes are skipped; more are left for the parser to refuse.
template <class Stream>
bool Session<Stream>::skip_empty_lines() {
  constexpr std::size_t kMaxEmptyLineBytes = 8;
  const auto* data = static_cast<const char*>(buffer_.data().data());
  std::size_t n = 0;
  while (n < buffer_.size() && skipped_empty_ + n < kMaxEmptyLineBytes && (data[n] == '\r' || data[n] == '\n')) ++n;
  buffer_.consume(n);
  skipped_empty_ += n;
  return skipped_empty_ < kMaxEmptyLineBytes;
}

template <class Stream>
void Session<Stream>::read_header() {
  record_ = ExchangeRecord{};
  record_.active = true;
  ++epoch_;
  record_.start = Clock::now();
  record_.id = ctx_.request_id({});
  record_.keep_alive = false;
  // One deadline for the whole header from its first byte: a slowloris client trickling header
  // bytes cannot hold the connection longer than this.
  set_deadline(cfg_.header_timeout);
  http::async_read_header(stream_, buffer_, *head_, bind(&Session::on_header));
}

template <class Stream>
void Session<Stream>::on_header(error_code ec, std::size_t n) {
  record_.header_bytes = n;
  if (seat_ && seat_->evicted()) return abort_exchange(499, "probe-reserve-evicted", {});
  if (ec == beast::error::timeout) return abort_exchange(408, "timeout-header", "header");
  if (client_went_away(ec)) return abort_exchange(499, "client-closed", {});
  if (ec) {
    record_.body_pending = true;  // the framing is unknown: close after answering
    return answer_problem(problem_for_parse_error(ec));
  }
  // In the reserve, the place is kept from here until the answer is out, unless the connection
  // was evicted first.
  if (seat_ && !seat_->begin_answer()) return abort_exchange(499, "probe-reserve-evicted", {});
  handle_request();
}

template <class Stream>
void Session<Stream>::handle_request() {
  const RequestHeader& req = head_->get();
  record_.method = std::string(req.method_string().substr(0, 16));
  record_.version = req.version() == 10 ? 10 : 11;  // answer 1.0 clients in kind, others in 1.1
  record_.keep_alive = head_->keep_alive();
  if (const std::string_view client_id = req["X-Request-Id"]; !client_id.empty())
    record_.id = ctx_.request_id(client_id);
  record_.body_pending = declares_body(req);
  if (const auto p = check_framing(req)) {
    record_.body_pending = true;
    return answer_problem(*p);
  }
  const std::optional<Target> target = split_target(req.target());
  if (!target) return answer_problem(Problem::bad_target);
  record_.route = match_route(target->path);
  if (record_.route == Route::unknown) return answer_problem(Problem::not_found);
  if (!method_allowed(record_.route, req.method())) return answer_problem(Problem::method_not_allowed);
  // A connection admitted past max_connections serves only the probes (an orchestrator must not
  // kill a healthy server because it is busy).
  if (seat_ && !is_probe(record_.route)) {
    record_.body_pending = true;
    return answer_problem(Problem::too_many_connections);
  }
  if (record_.route == Route::validate)
    return route_.template emplace<UploadExchange<Stream>>(*this, epoch_).start(*head_, target->query);
  if (record_.route == Route::check_model)
    return route_.template emplace<CheckModelExchange<Stream>>(*this, epoch_).start(*head_);
  if (record_.route == Route::ui) {
    std::optional<Response> page;
    if (cfg_.ui) page = answer_ui(target->path, req[http::field::if_none_match], record_.version);
    if (!page) return answer_problem(Problem::not_found);
    return answer(req.method() == http::verb::head ? without_body(std::move(*page)) : std::move(*page));
  }
  // GET routes read no body: one that came with a body is answered, then the connection closes.
  Response res = answer_get(record_.route, ctx_, record_.version);
  answer(req.method() == http::verb::head ? without_body(std::move(res)) : std::move(res));
}

template <class Stream>
std::optional<Problem> Session<Stream>::refuse_body() {
  if (const auto p = check_expect(head_->get())) return p;
  if (!head_->chunked() && !head_->content_length()) {
    record_.body_pending = true;  // whatever follows is an unframed body, not the next request: close
    return Problem::length_required;
  }
  if (ctx_.draining()) return Problem::draining;
  return std::nullopt;
}

template <class Stream>
void Session<Stream>::send_continue() {
  continue_.emplace(http::status::continue_, record_.version);
  set_deadline(cfg_.write_timeout);
  http::async_write(stream_, *continue_, [self = this->shared_from_this()](error_code ec, std::size_t) {
    self->continue_.reset();
    if (ec) return self->abort_exchange(499, "client-closed", {});
    std::visit(
        [](auto& exchange) {
          if constexpr (!std::is_same_v<std::decay_t<decltype(exchange)>, std::monostate>) exchange.read();
        },
        self->route_);
  });
}

template <class Stream>
template <class Message>
bool Session<Stream>::set_connection_fields(Message& res, bool must_close) {
  // A connection in the probes' reserve gets one answer: its place goes back as soon as it can.
  const bool close = must_close || !record_.keep_alive || record_.body_pending || ctx_.draining() || seat_ ||
                     served_ + 1 >= cfg_.keepalive_max_requests;
  res.keep_alive(!close);
  // Said explicitly even to HTTP/1.0 clients, for whom closing is the default.
  if (close) res.set(http::field::connection, "close");
  res.set("X-Request-Id", record_.id);
  return close;
}

template <class Stream>
void Session<Stream>::answer(Response&& res) {
  close_after_write_ = set_connection_fields(res);
  res_.emplace(std::move(res));
  sr_.emplace(*res_);
  start_writing();
}

template <class Stream>
void Session<Stream>::start_writing() {
  written_ = 0;
  write_rate_.emplace(cfg_.min_write_rate_bytes_per_second, cfg_.min_write_rate_window);
  write_some_response();
}

// The response goes out a piece at a time: an idle deadline for each piece and a minimum average
// rate over each window, never one deadline for the whole response (an honest slow reader of a
// large report would be cut, and one that never reads would hold its memory for the whole time).
template <class Stream>
void Session<Stream>::write_some_response() {
  set_deadline(cfg_.write_timeout);
  if (streamed_sr_) return http::async_write_some(stream_, *streamed_sr_, bind(&Session::on_write_some));
  http::async_write_some(stream_, *sr_, bind(&Session::on_write_some));
}

template <class Stream>
void Session<Stream>::on_write_some(error_code ec, std::size_t n) {
  written_ += n;
  if (ec || (streamed_sr_ ? streamed_sr_->is_done() : sr_->is_done())) return on_write(ec);
  if (write_rate_->too_slow(written_)) return on_write(beast::error::timeout);
  write_some_response();
}

template <class Stream>
void Session<Stream>::answer_problem(Problem p, std::string detail, std::string_view limit) {
  ProblemDetails d{record_.id, std::move(detail), std::nullopt, limit};
  if (const auto* upload = std::get_if<UploadExchange<Stream>>(&route_))
    d.bytes_received = upload->bytes_received();
  else if (record_.route == Route::validate)
    d.bytes_received = 0;  // refused before its exchange began (405, the probes' reserve)
  record_.code = problem_info(p).code;
  Response res = make_problem_response(p, d, record_.version, cfg_.retry_after_seconds);
  if (p == Problem::method_not_allowed) res.set(http::field::allow, allowed_methods(record_.route));
  answer(std::move(res));
}

template <class Stream>
void Session<Stream>::answer_too_large(std::uint64_t limit) {
  answer_problem(Problem::body_too_large, "the limit is " + std::to_string(limit) + " bytes");
}

// The body is cut for its rate: answered (408) and logged, then the connection closes (the rest
// of the body is not read).
template <class Stream>
void Session<Stream>::answer_too_slow() {
  ctx_.metrics.timeouts.add(label("phase", "rate"));
  record_.body_pending = true;
  answer_problem(Problem::request_timeout,
                 "the body averaged less than " + std::to_string(cfg_.min_body_rate_bytes_per_second) + " bytes/s");
}

// A report: 200 when what it judged is valid, 422 when not. Never cached: the same URL answers
// another body next time. The body is charged to the memory budget until it is written; what
// the validation held (header, table) is released first, when the upload ends.
template <class Stream>
void Session<Stream>::answer_verdict(bool valid, std::string json_body) {
  hold_anyway(json_body.size());
  Response res{valid ? http::status::ok : http::status::unprocessable_entity, record_.version};
  res.set(http::field::content_type, "application/json");
  res.set(http::field::cache_control, "no-store");
  res.body() = std::move(json_body);
  res.prepare_payload();
  answer(std::move(res));
}

// The report goes out as it is written: the chunked coding frames it, and what is held is its
// first part (charged by answer_report), the piece being written (charged here) and the table
// the validator still holds.
template <class Stream>
void Session<Stream>::answer_streamed(bool valid, std::unique_ptr<UploadReport> body) {
  hold_anyway(2 * UploadReport::kPieceBytes);
  StreamedResponse res{valid ? http::status::ok : http::status::unprocessable_entity, record_.version};
  res.set(http::field::content_type, "application/json");
  res.set(http::field::cache_control, "no-store");
  // HTTP/1.0 has no chunked coding: the body ends where the connection closes (RFC 9112,
  // section 6.3), so the report is still never built whole, and the connection is not kept.
  const bool chunked = record_.version >= 11;
  res.chunked(chunked);
  res.body().source = std::move(body);
  close_after_write_ = set_connection_fields(res, !chunked);
  streamed_.emplace(std::move(res));
  streamed_sr_.emplace(*streamed_);
  start_writing();
}

template <class Stream>
void Session<Stream>::on_write(error_code ec) {
  ++served_;
  if (seat_) seat_->end_answer();
  const bool close = close_after_write_;
  const std::uint64_t n = written_;
  std::string_view note;
  if (ec == beast::error::timeout) {
    ctx_.metrics.timeouts.add(label("phase", "write"));
    note = "timeout-write";
  } else if (ec) {
    note = "client-closed";
  }
  end_exchange(streamed_ ? streamed_->result_int() : res_->result_int(), n, note);
  sr_.reset();
  res_.reset();
  streamed_sr_.reset();
  streamed_.reset();
  if (ec) return close_now();
  if (close) return graceful_close();
  wait_request();
}

template <class Stream>
bool Session<Stream>::hold(std::size_t total) {
  if (total <= held_) return true;
  if (!ctx_.budget.try_acquire(total - held_)) return false;
  held_ = total;
  return true;
}

template <class Stream>
void Session<Stream>::hold_anyway(std::size_t bytes) {
  ctx_.budget.acquire_anyway(bytes);
  held_ += bytes;
}

template <class Stream>
void Session<Stream>::release_held() {
  if (held_) ctx_.budget.release(held_);
  held_ = 0;
}

template <class Stream>
void Session<Stream>::end_exchange(unsigned status, std::uint64_t bytes_sent,
                                   std::string_view note) {
  const auto* upload = std::get_if<UploadExchange<Stream>>(&route_);
  const std::uint64_t body_bytes = upload ? upload->bytes_received() : 0;
  record_exchange(ctx_, record_, remote_, {status, body_bytes, bytes_sent, note});
  record_.active = false;
  release_held();
  const bool was_upload = upload && upload->admitted();
  // The exchange's parser, its upload, what the validator still holds of the memory budget, and
  // its upload slot go back here.
  route_.template emplace<std::monostate>();
  if (was_upload) {
    buffer_.shrink_to_fit();  // back to an idle connection's size
    ctx_.trim_when_idle();
  }
}

// The connection ends without an answer (a deadline, the client left).
template <class Stream>
void Session<Stream>::abort_exchange(unsigned status, std::string_view note,
                                     std::string_view timeout_phase) {
  if (!timeout_phase.empty()) ctx_.metrics.timeouts.add(label("phase", timeout_phase));
  if (record_.active) end_exchange(status, 0, note);
  close_now();
}

// Half-close, then read and discard what the client still sends, for a bounded time and amount,
// then close: closing with unread bytes would make the kernel send a reset, and the client could
// lose the answer it has not read yet.
template <class Stream>
void Session<Stream>::graceful_close() {
  Ops::shutdown_send(stream_);
  buffer_.consume(buffer_.size());
  lingered_ = 0;
  set_deadline(cfg_.linger_timeout);  // one deadline for the whole linger
  linger();
}

template <class Stream>
void Session<Stream>::linger() {
  stream_.async_read_some(buffer_.prepare(kHeaderReadBytes),
                          [self = this->shared_from_this()](error_code ec, std::size_t n) {
                            self->lingered_ += n;
                            if (ec || self->lingered_ >= self->cfg_.linger_max_bytes)
                              return self->close_now();
                            self->linger();
                          });
}

template <class Stream>
void Session<Stream>::close_now() {
  Ops::close(stream_);
}

#define TG_INSTANTIATE(S) template class Session<S>;
TG_SESSION_STREAMS(TG_INSTANTIATE)
#undef TG_INSTANTIATE

}  // namespace tensorgate::service
