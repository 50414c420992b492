// Session: answers, the end of an exchange, and closing. Included by session.hpp.
#pragma once

namespace tensorgate::service {

template <class Stream>
void Session<Stream>::answer(Response&& res) {
  const bool close = !ex_.keep_alive || ex_.body_pending || ctx_.draining() ||
                     served_ + 1 >= cfg_.keepalive_max_requests;
  res.keep_alive(!close);
  // Said explicitly even to HTTP/1.0 clients, for whom closing is the default.
  if (close) res.set(http::field::connection, "close");
  res.set("X-Request-Id", ex_.id);
  res_.emplace(std::move(res));
  Ops::set_deadline(stream_, cfg_.write_timeout);
  http::async_write(stream_, *res_, beast::bind_front_handler(&Session::on_write,
                                                              this->shared_from_this(), close));
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
// another body next time.
template <class Stream>
void Session<Stream>::answer_verdict(bool valid, std::string json_body) {
  Response res{valid ? http::status::ok : http::status::unprocessable_entity, ex_.version};
  res.set(http::field::content_type, "application/json");
  res.set(http::field::cache_control, "no-store");
  res.body() = std::move(json_body);
  res.prepare_payload();
  answer(std::move(res));
}

template <class Stream>
void Session<Stream>::on_write(bool close, error_code ec, std::size_t n) {
  ++served_;
  std::string_view note;
  if (ec == beast::error::timeout) {
    ctx_.metrics.timeouts.add(label("phase", "write"));
    note = "timeout-write";
  } else if (ec) {
    note = "client-closed";
  }
  end_exchange(res_->result_int(), n, note);
  res_.reset();
  if (ec) return close_now();
  if (close) return graceful_close();
  wait_request();
}

template <class Stream>
void Session<Stream>::end_exchange(unsigned status, std::uint64_t bytes_sent,
                                   std::string_view note) {
  const std::uint64_t body_bytes = upload_ ? upload_->bytes_received() : 0;
  record_exchange(ctx_, ex_, remote_, {status, body_bytes, bytes_sent, note});
  ex_.active = false;
  body_.reset();
  upload_.reset();  // releases the validator's share of the header budget
  if (holds_upload_slot_) {
    holds_upload_slot_ = false;
    ctx_.end_upload();
    buffer_.shrink_to_fit();
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
  Ops::set_deadline(stream_, cfg_.linger_timeout);  // one deadline for the whole linger
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
