// Session: answers, the end of an exchange, and closing. Included by session.hpp.
#pragma once

namespace tensorgate::service {

template <class Stream>
template <class Message>
bool Session<Stream>::set_connection_fields(Message& res, bool must_close) {
  // A connection in the probes' reserve gets one answer: its place goes back as soon as it can.
  const bool close = must_close || !ex_.keep_alive || ex_.body_pending || ctx_.draining() || seat_ ||
                     served_ + 1 >= cfg_.keepalive_max_requests;
  res.keep_alive(!close);
  // Said explicitly even to HTTP/1.0 clients, for whom closing is the default.
  if (close) res.set(http::field::connection, "close");
  res.set("X-Request-Id", ex_.id);
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
  write_window_start_ = Clock::now();
  write_window_bytes_ = 0;
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
  if (cfg_.min_write_rate_bytes_per_second > 0) {
    const Clock::time_point now = Clock::now();
    if (now - write_window_start_ >= cfg_.min_write_rate_window) {
      const double seconds = std::chrono::duration<double>(now - write_window_start_).count();
      if (static_cast<double>(written_ - write_window_bytes_) <
          seconds * static_cast<double>(cfg_.min_write_rate_bytes_per_second))
        return on_write(beast::error::timeout);
      write_window_start_ = now;
      write_window_bytes_ = written_;
    }
  }
  write_some_response();
}

template <class Stream>
void Session<Stream>::answer_problem(Problem p, std::string detail, std::string_view limit) {
  ProblemDetails d{ex_.id, std::move(detail), std::nullopt, limit};
  if (upload_) d.bytes_received = upload_->bytes_received();
  else if (ex_.route == Route::validate) d.bytes_received = 0;
  ex_.code = problem_info(p).code;
  Response res = make_problem_response(p, d, ex_.version, cfg_.retry_after_seconds);
  if (p == Problem::method_not_allowed) res.set(http::field::allow, allowed_methods(ex_.route));
  answer(std::move(res));
}

template <class Stream>
void Session<Stream>::answer_too_large(std::uint64_t limit) {
  answer_problem(Problem::body_too_large, "the limit is " + std::to_string(limit) + " bytes");
}

// A report: 200 when what it judged is valid, 422 when not. Never cached: the same URL answers
// another body next time. The body is charged to the memory budget until it is written; what
// the validation held (header, table) is released first, when the upload ends.
template <class Stream>
void Session<Stream>::answer_verdict(bool valid, std::string json_body) {
  hold_anyway(json_body.size());
  Response res{valid ? http::status::ok : http::status::unprocessable_entity, ex_.version};
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
  StreamedResponse res{valid ? http::status::ok : http::status::unprocessable_entity, ex_.version};
  res.set(http::field::content_type, "application/json");
  res.set(http::field::cache_control, "no-store");
  // HTTP/1.0 has no chunked coding: the body ends where the connection closes (RFC 9112,
  // section 6.3), so the report is still never built whole, and the connection is not kept.
  const bool chunked = ex_.version >= 11;
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
  const std::uint64_t body_bytes = upload_ ? upload_->bytes_received() : 0;
  record_exchange(ctx_, ex_, remote_, {status, body_bytes, bytes_sent, note});
  ex_.active = false;
  block_read_.reset();
  body_.reset();
  json_.reset();
  release_held();
  const bool was_upload = upload_ != nullptr;
  upload_.reset();  // releases the validator's share of the memory budget, if still held
  if (holds_upload_slot_) {
    holds_upload_slot_ = false;
    ctx_.end_upload();
  }
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
  if (ex_.active) end_exchange(status, 0, note);
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

}  // namespace tensorgate::service
