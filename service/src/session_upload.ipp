// Session: POST|PUT /v1/validate, the streamed upload. Included by session.hpp.
#pragma once

namespace tensorgate::service {

template <class Stream>
void Session<Stream>::start_upload(std::string_view query) {
  const RequestHeader& req = head_->get();
  if (const auto p = refuse_upload(req)) return answer_problem(*p);
  QueryResult q = parse_upload_query(query, cfg_.max_name_bytes);
  if (!q.error.empty()) return answer_problem(Problem::bad_query, std::move(q.error));
  const boost::optional<std::uint64_t> length = head_->content_length();
  // Answered before `100 Continue` and before any body byte is read.
  if (length && *length > cfg_.max_body_bytes)
    return answer_too_large(cfg_.max_body_bytes);
  if (!ctx_.try_begin_upload()) return answer_problem(Problem::over_capacity);
  holds_upload_slot_ = true;
  const bool wants_continue = expects_continue(req);
  upload_ = std::make_unique<Upload>(ctx_, std::move(q.options),
                                     length ? std::optional(*length) : std::nullopt);
  ++upload_epoch_;
  waiting_for_digest_ = false;
  body_.emplace(std::move(*head_), upload_.get());
  head_.reset();
  chunks_ = 0;
  body_->on_chunk_header(count_chunk_);
  buffer_.reserve(cfg_.read_buffer_bytes);  // full-size reads (a fresh flat_buffer reads 512 B)
  ex_.window_start = Clock::now();
  ex_.window_bytes = 0;
  if (wants_continue && !body_->is_done()) return send_continue();
  read_body();
}

// The checks an upload's header must pass before the body is read, in the order a client
// would fix them.
template <class Stream>
std::optional<Problem> Session<Stream>::refuse_upload(const RequestHeader& req) {
  if (const auto p = check_expect(req)) return p;
  if (!head_->chunked() && !head_->content_length()) {
    ex_.body_pending = true;  // whatever follows is an unframed body, not the next request: close
    return Problem::length_required;
  }
  if (ctx_.draining()) return Problem::draining;
  return std::nullopt;
}

template <class Stream>
void Session<Stream>::send_continue() {
  continue_.emplace(http::status::continue_, ex_.version);
  set_deadline(cfg_.write_timeout);
  http::async_write(stream_, *continue_, [self = this->shared_from_this()](error_code ec, std::size_t) {
    self->continue_.reset();
    if (ec) return self->abort_exchange(499, "client-closed", {});
    if (self->json_) return self->read_json_body();
    self->read_body();
  });
}

template <class Stream>
void Session<Stream>::read_body() {
  if (body_->is_done()) return finish_upload();
  // An idle deadline per read, never one for the whole upload: a 50 GB body takes minutes.
  set_deadline(cfg_.body_idle_timeout);
  if (UploadDigest* d = upload_->digest(); d && (d->wants_attach() || d->attached()))
    return read_body_in_place(*d);
  http::async_read_some(stream_, buffer_, *body_, bind(&Session::on_body));
}

// Past the digest's first MiB the body is read into the digest's blocks (upload_digest.hpp,
// "Read in place"); the bytes read but not parsed move there once, and back at the body's end.
template <class Stream>
void Session<Stream>::read_body_in_place(UploadDigest& d) {
  if (d.wants_attach()) {
    d.attach(static_cast<const char*>(buffer_.data().data()), buffer_.size());
    buffer_.consume(buffer_.size());
  }
  if (const boost::optional<std::uint64_t> left = body_->content_length_remaining())
    block_read_.emplace(d, SIZE_MAX, *left);
  else
    block_read_.emplace(d, cfg_.read_buffer_bytes, UINT64_MAX);
  http::async_read_some(stream_, *block_read_, *body_, bind(&Session::on_body));
}

// The body has ended: what was read past it (a pipelined request) goes back to the session's
// buffer. At most read-buffer-bytes (a chunked body's bound, or what attach() took): it fits.
template <class Stream>
void Session<Stream>::detach_body_reads() {
  UploadDigest* d = upload_->digest();
  block_read_.reset();
  if (!d || !d->attached()) return;
  const std::span<const char> rest = d->unparsed();
  if (rest.size() > buffer_.max_size() - buffer_.size()) {
    ex_.body_pending = true;  // cannot keep them: close after answering
  } else {
    buffer_.commit(net::buffer_copy(buffer_.prepare(rest.size()), net::buffer(rest.data(), rest.size())));
  }
  d->consume(rest.size());
}

template <class Stream>
void Session<Stream>::on_body(error_code ec, std::size_t) {
  if (ec == beast::error::timeout) return abort_exchange(408, "timeout-body", "body");
  if (ec == http::error::body_limit)
    return answer_too_large(cfg_.max_body_bytes);
  if (ec == http::error::buffer_overflow)
    return answer_problem(Problem::bad_request, "a chunk header or the trailer is too large");
  if (ec == http::error::bad_chunk && chunks_too_small())
    return answer_problem(Problem::bad_request, "the chunks average fewer than " +
                                                    std::to_string(cfg_.min_average_chunk_bytes) + " bytes");
  if (client_went_away(ec)) return abort_exchange(499, "client-closed", {});
  if (ec) return answer_problem(Problem::bad_request, "malformed chunked body");
  if (upload_->has_pending()) {
    // A large header is complete: parse it on a worker, then carry on here.
    Upload* upload = upload_.get();
    return ctx_.offload([upload] { upload->feed_pending(); }, stream_.get_executor(),
                        [self = this->shared_from_this()] { self->on_body({}, 0); });
  }
  // An early answer gives no digest: an invalid upload does not wait for one.
  if (upload_->progress() != Progress::invalid && waits_for_digest()) return;
  if (body_->is_done()) return finish_upload();
  if (upload_->progress() == Progress::invalid) return answer_early();
  if (upload_->progress() == Progress::aborted) return answer_aborted(upload_->snapshot());
  if (too_slow(upload_->bytes_received())) return answer_too_slow();
  read_body();
}

// Whether the chunks so far average fewer bytes than the minimum (after the free ones).
template <class Stream>
bool Session<Stream>::chunks_too_small() const {
  if (cfg_.min_average_chunk_bytes == 0 || chunks_ <= cfg_.free_chunks) return false;
  const std::uint64_t body = upload_ ? upload_->bytes_received() : 0;
  return (chunks_ - cfg_.free_chunks) * cfg_.min_average_chunk_bytes > body;
}

// The minimum transfer rate, averaged over each window: the idle deadline alone lets a client
// hold an upload slot for ever with one byte per deadline.
template <class Stream>
bool Session<Stream>::too_slow(std::uint64_t received) {
  if (cfg_.min_body_rate_bytes_per_second == 0) return false;
  const Clock::time_point now = Clock::now();
  if (now - ex_.window_start < cfg_.min_body_rate_window) return false;
  const double seconds = std::chrono::duration<double>(now - ex_.window_start).count();
  const std::uint64_t got = received - ex_.window_bytes;
  if (static_cast<double>(got) < seconds * static_cast<double>(cfg_.min_body_rate_bytes_per_second))
    return true;
  ex_.window_start = now;
  ex_.window_bytes = received;
  return false;
}

// The body is cut for its rate: answered (408) and logged, then the connection closes (the rest
// of the body is not read).
template <class Stream>
void Session<Stream>::answer_too_slow() {
  ctx_.metrics.timeouts.add(label("phase", "rate"));
  ex_.body_pending = true;
  answer_problem(Problem::request_timeout,
                 "the body averaged less than " + std::to_string(cfg_.min_body_rate_bytes_per_second) + " bytes/s");
}

// Queues a full block and starts a hash job when none runs; true when reading must pause: no
// block is free, or the body is done and the digest needs every byte. The job's completion, and
// its call when it frees a block this session waits for, come back to this session's executor
// and resume on_body only if this upload is still the one waiting (an early answer or a new
// exchange leaves the job to finish alone).
template <class Stream>
bool Session<Stream>::waits_for_digest() {
  UploadDigest* d = upload_->digest();
  if (!d) return false;
  const bool room = d->ready_for_more();
  if (d->job_ready()) start_digest_job();
  if (room && !(body_->is_done() && d->busy())) return false;
  waiting_for_digest_ = true;
  return true;
}

template <class Stream>
void Session<Stream>::start_digest_job() {
  const std::uint64_t epoch = upload_epoch_;
  const std::weak_ptr<Session> weak = this->shared_from_this();
  // On the worker, under the digest's lock: only a post (the session may be gone by then).
  auto freed = [weak, epoch, ex = stream_.get_executor()] {
    net::post(ex, [weak, epoch] {
      if (const auto self = weak.lock()) self->resume_after_digest(epoch);
    });
  };
  ctx_.offload(upload_->digest()->take_job(std::move(freed)), stream_.get_executor(),
               [self = this->shared_from_this(), epoch] { self->resume_after_digest(epoch); });
}

template <class Stream>
void Session<Stream>::resume_after_digest(std::uint64_t epoch) {
  if (upload_epoch_ != epoch || !upload_ || !upload_->digest() || !waiting_for_digest_) return;
  waiting_for_digest_ = false;
  on_body({}, 0);
}

template <class Stream>
void Session<Stream>::finish_upload() {
  if (waits_for_digest()) return;  // the digest needs every byte: on_body comes back for it
  ex_.body_pending = false;
  detach_body_reads();
  Report report = upload_->finish();
  if (report.aborted) return answer_aborted(report);
  answer_report(std::move(report), true);
}

// The header is already invalid: answer now from what is known, without reading the rest of the
// body, then close gracefully (the unread body makes the connection unusable).
template <class Stream>
void Session<Stream>::answer_early() {
  answer_report(upload_->snapshot(), false);
}

// The upload's reading is over once its answer starts: its slot goes back. What the validator
// held (header, table) goes back too when the answer is built whole; a streamed answer still
// writes from the table, so the validator and its share of the budget stay until it is written.
template <class Stream>
void Session<Stream>::release_upload(bool keep_validator) {
  if (upload_ && !keep_validator) upload_->release_validator();
  if (holds_upload_slot_) {
    holds_upload_slot_ = false;
    ctx_.end_upload();
  }
}

// A report of up to kWholeReportBytes is answered whole, with a Content-Length; a larger one
// (a large inventory) is written while it is sent, a piece at a time (answer_streamed: chunked,
// or to HTTP/1.0 clients delimited by the connection's close). The first kWholeReportBytes are
// charged before they are written; a streamed answer holds them until it is sent.
template <class Stream>
void Session<Stream>::answer_report(Report report, bool complete) {
  record_validation(ctx_, ex_, report);
  const bool valid = report.valid;
  UploadFacts facts{ex_.id, upload_->options(), upload_->bytes_received(), complete,
                    complete ? upload_->sha256_hex() : std::nullopt, cfg_.max_report_tensors, cfg_.max_report_metadata};
  auto body = std::make_unique<UploadReport>(std::move(facts), std::move(report));
  hold_anyway(kWholeReportBytes);  // what start() writes before a byte is sent
  if (body->start(kWholeReportBytes)) {
    std::string text = std::move(body->head());
    body.reset();
    release_upload(false);
    release_held();  // answer_verdict charges the text itself
    return answer_verdict(valid, std::move(text));
  }
  release_upload(true);
  answer_streamed(valid, std::move(body));
}

// A limit of this service stopped the validation: a capacity answer, not a verdict.
template <class Stream>
void Session<Stream>::answer_aborted(const Report& report) {
  record_validation(ctx_, ex_, report);
  // Memory shared with other uploads comes back (503, retry); a size this service refuses
  // does not (413).
  const Problem p = report.aborted->kind == AbortKind::memory_budget ? Problem::memory_budget
                                                                     : Problem::validation_limit;
  answer_problem(p, report.aborted->message, report.aborted->limit);
}

}  // namespace tensorgate::service
