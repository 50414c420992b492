// Session: reading a request's header, the hygiene checks and routing. Included by session.hpp.
#pragma once

namespace tensorgate::service {

// A header is read into a small buffer; the full read buffer is reserved only for upload bodies
// (session_upload.ipp), so a thousand idle connections stay cheap.
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
  if (holds_upload_slot_) ctx_.end_upload();
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
  ex_ = Exchange{};
  ex_.active = true;
  ex_.start = Clock::now();
  ex_.id = ctx_.request_id({});
  ex_.keep_alive = false;
  // One deadline for the whole header from its first byte: a slowloris client trickling header
  // bytes cannot hold the connection longer than this.
  set_deadline(cfg_.header_timeout);
  http::async_read_header(stream_, buffer_, *head_, bind(&Session::on_header));
}

template <class Stream>
void Session<Stream>::on_header(error_code ec, std::size_t n) {
  ex_.header_bytes = n;
  if (seat_ && seat_->evicted()) return abort_exchange(499, "probe-reserve-evicted", {});
  if (ec == beast::error::timeout) return abort_exchange(408, "timeout-header", "header");
  if (client_went_away(ec)) return abort_exchange(499, "client-closed", {});
  if (ec) {
    ex_.body_pending = true;  // the framing is unknown: close after answering
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
  ex_.method = std::string(req.method_string().substr(0, 16));
  ex_.version = req.version() == 10 ? 10 : 11;  // answer 1.0 clients in kind, others in 1.1
  ex_.keep_alive = head_->keep_alive();
  if (const std::string_view client_id = req["X-Request-Id"]; !client_id.empty())
    ex_.id = ctx_.request_id(client_id);
  ex_.body_pending = declares_body(req);
  if (const auto p = check_framing(req)) {
    ex_.body_pending = true;
    return answer_problem(*p);
  }
  const std::optional<Target> target = split_target(req.target());
  if (!target) return answer_problem(Problem::bad_target);
  ex_.route = match_route(target->path);
  if (ex_.route == Route::unknown) return answer_problem(Problem::not_found);
  if (!method_allowed(ex_.route, req.method())) return answer_problem(Problem::method_not_allowed);
  // A connection admitted past max_connections serves only the probes (an orchestrator must not
  // kill a healthy server because it is busy).
  if (seat_ && !is_probe(ex_.route)) {
    ex_.body_pending = true;
    return answer_problem(Problem::too_many_connections);
  }
  if (ex_.route == Route::validate) return start_upload(target->query);
  if (ex_.route == Route::check_model) return start_check_model();
  if (ex_.route == Route::ui) {
    std::optional<Response> page;
    if (cfg_.ui) page = answer_ui(target->path, req[http::field::if_none_match], ex_.version);
    if (!page) return answer_problem(Problem::not_found);
    return answer(req.method() == http::verb::head ? without_body(std::move(*page)) : std::move(*page));
  }
  // GET routes read no body: one that came with a body is answered, then the connection closes.
  Response res = answer_get(ex_.route, ctx_, ex_.version);
  answer(req.method() == http::verb::head ? without_body(std::move(res)) : std::move(res));
}

}  // namespace tensorgate::service
