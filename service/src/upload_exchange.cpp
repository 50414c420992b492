#include "upload_exchange.hpp"

#include "exchange.hpp"
#include "query.hpp"
#include "session.hpp"
#include "session_streams.hpp"

namespace tensorgate::service {

template <class Stream>
UploadExchange<Stream>::UploadExchange(Session<Stream>& session, std::uint64_t epoch)
    : session_(session), ctx_(session.context()), cfg_(ctx_.config), epoch_(epoch) {}

template <class Stream>
void UploadExchange<Stream>::start(HeadParser& head, std::string_view query) {
  const RequestHeader& req = head.get();
  if (const auto p = session_.refuse_body()) return session_.answer_problem(*p);
  QueryResult q = parse_upload_query(query, cfg_.max_name_bytes);
  if (!q.error.empty()) return session_.answer_problem(Problem::bad_query, std::move(q.error));
  const boost::optional<std::uint64_t> length = head.content_length();
  // Answered before `100 Continue` and before any body byte is read.
  if (length && *length > cfg_.max_body_bytes) return session_.answer_too_large(cfg_.max_body_bytes);
  if (!slot_.take(ctx_)) return session_.answer_problem(Problem::over_capacity);
  const bool wants_continue = expects_continue(req);
  upload_ = std::make_unique<Upload>(ctx_, std::move(q.options), length ? std::optional(*length) : std::nullopt);
  if (upload_->options().digest) digest_.emplace(&ctx_.budget, cfg_.read_buffer_bytes);
  parser_.emplace(std::move(head), this);
  parser_->on_chunk_header(count_chunk_);
  session_.buffer().reserve(cfg_.read_buffer_bytes);  // full-size reads (a fresh flat_buffer reads 512 B)
  rate_.emplace(cfg_.min_body_rate_bytes_per_second, cfg_.min_body_rate_window);
  if (wants_continue && !parser_->is_done()) return session_.send_continue();
  read();
}

template <class Stream>
void UploadExchange<Stream>::read() {
  if (parser_->is_done()) return finish();
  // An idle deadline per read, never one for the whole upload: a 50 GB body takes minutes.
  session_.set_deadline(cfg_.body_idle_timeout);
  if (digest_ && (digest_->wants_attach() || digest_->attached())) return read_in_place(*digest_);
  http::async_read_some(session_.stream(), session_.buffer(), *parser_, resume(&UploadExchange::on_read));
}

// Past the digest's first MiB the body is read into the digest's blocks (upload_digest.hpp,
// "Read in place"); the bytes read but not parsed move there once, and back at the body's end.
template <class Stream>
void UploadExchange<Stream>::read_in_place(UploadDigest& d) {
  beast::flat_buffer& buffer = session_.buffer();
  if (d.wants_attach()) {
    d.attach(static_cast<const char*>(buffer.data().data()), buffer.size());
    buffer.consume(buffer.size());
  }
  if (const boost::optional<std::uint64_t> left = parser_->content_length_remaining())
    block_read_.emplace(d, SIZE_MAX, *left);
  else
    block_read_.emplace(d, cfg_.read_buffer_bytes, UINT64_MAX);
  http::async_read_some(session_.stream(), *block_read_, *parser_, resume(&UploadExchange::on_read));
}

// The body has ended: what was read past it (a pipelined request) goes back to the session's
// buffer. At most read-buffer-bytes (a chunked body's bound, or what attach() took): it fits.
template <class Stream>
void UploadExchange<Stream>::detach_body_reads() {
  block_read_.reset();
  if (!digest_ || !digest_->attached()) return;
  const std::span<const char> rest = digest_->unparsed();
  beast::flat_buffer& buffer = session_.buffer();
  if (rest.size() > buffer.max_size() - buffer.size()) {
    session_.record().body_pending = true;  // cannot keep them: close after answering
  } else {
    buffer.commit(net::buffer_copy(buffer.prepare(rest.size()), net::buffer(rest.data(), rest.size())));
  }
  digest_->consume(rest.size());
}

template <class Stream>
bool UploadExchange<Stream>::put(const void* data, std::size_t size) {
  if (!upload_->receive(size)) return false;
  if (!header_on_worker_.empty() || upload_->completes_heavy_step(size))
    header_on_worker_.append(static_cast<const char*>(data), size);
  else
    upload_->feed(data, size);
  // The digest last: reading in place, it may move the piece down within the block this
  // exchange reads into (upload_digest.hpp, "Read in place"). Reading into the digest's blocks
  // saves a copy of every byte on the connection's core: with it the loopback digest runs at 88%
  // of SHA-256's own speed, without it at 73% (bench/README.md, "Upload digest").
  if (digest_) digest_->put(data, size);
  return true;
}

// A read's errors end the exchange (answered, or aborted without an answer: either returns at
// once, since the session then ends this exchange).
template <class Stream>
void UploadExchange<Stream>::on_read(error_code ec, std::size_t) {
  if (ec == beast::error::timeout) return session_.abort_exchange(408, "timeout-body", "body");
  if (ec == http::error::body_limit) return session_.answer_too_large(cfg_.max_body_bytes);
  if (ec == http::error::buffer_overflow)
    return session_.answer_problem(Problem::bad_request, "a chunk header or the trailer is too large");
  if (ec == http::error::bad_chunk && chunks_too_small())
    return session_.answer_problem(Problem::bad_request, "the chunks average fewer than " +
                                                             std::to_string(cfg_.min_average_chunk_bytes) + " bytes");
  if (client_went_away(ec)) return session_.abort_exchange(499, "client-closed", {});
  if (ec) return session_.answer_problem(Problem::bad_request, "malformed chunked body");
  advance();
}

template <class Stream>
void UploadExchange<Stream>::advance() {
  if (!header_on_worker_.empty()) return parse_header_on_worker();
  // An early answer gives no digest: an invalid upload does not wait for one.
  if (upload_->progress() != Progress::invalid && waits_for_digest()) return;
  if (parser_->is_done()) return finish();
  if (upload_->progress() == Progress::invalid) return answer_early();
  if (upload_->progress() == Progress::aborted) return answer_aborted(upload_->snapshot());
  if (rate_->too_slow(upload_->bytes_received())) return session_.answer_too_slow();
  read();
}

// A large header is complete: its parse runs on a worker, against its CPU deadline, and the
// upload goes on from there. Nothing else touches the exchange meanwhile: no read is pending,
// and the session ends an exchange only from its completions (this one keeps it alive).
template <class Stream>
void UploadExchange<Stream>::parse_header_on_worker() {
  ctx_.offload(
      [this] {
        upload_->feed_heavy(header_on_worker_);
        header_on_worker_ = std::string();  // its memory goes back at once (clear() would keep it)
      },
      session_.stream().get_executor(), resume(&UploadExchange::advance));
}

// Whether the chunks so far average fewer bytes than the minimum (after the free ones).
template <class Stream>
bool UploadExchange<Stream>::chunks_too_small() const {
  if (cfg_.min_average_chunk_bytes == 0 || chunks_ <= cfg_.free_chunks) return false;
  return (chunks_ - cfg_.free_chunks) * cfg_.min_average_chunk_bytes > bytes_received();
}

// Queues a full block and starts a hash job when none runs; true when reading must pause: no
// block is free, or the body is done and the digest needs every byte. The job's completion, and
// its call when it frees a block this exchange waits for, come back through the session and
// resume the upload only if this exchange is still the one waiting (an early answer or a new
// exchange leaves the job to finish alone).
template <class Stream>
bool UploadExchange<Stream>::waits_for_digest() {
  if (!digest_) return false;
  const bool room = digest_->ready_for_more();
  if (digest_->job_ready()) start_digest_job();
  if (room && !(parser_->is_done() && digest_->busy())) return false;
  waiting_for_digest_ = true;
  return true;
}

template <class Stream>
void UploadExchange<Stream>::start_digest_job() {
  const std::weak_ptr<Session<Stream>> weak = session_.shared_from_this();
  // On the worker, under the digest's lock: only a post (the session may be gone by then).
  auto freed = [weak, epoch = epoch_, ex = session_.stream().get_executor()] {
    net::post(ex, [weak, epoch] {
      if (const auto self = weak.lock())
        if (UploadExchange* e = self->template exchange_if<UploadExchange>(epoch)) e->resume_after_digest();
    });
  };
  ctx_.offload(digest_->take_job(std::move(freed)), session_.stream().get_executor(),
               resume(&UploadExchange::resume_after_digest));
}

template <class Stream>
void UploadExchange<Stream>::resume_after_digest() {
  if (!waiting_for_digest_) return;
  waiting_for_digest_ = false;
  advance();
}

template <class Stream>
void UploadExchange<Stream>::finish() {
  if (waits_for_digest()) return;  // the digest needs every byte: its job resumes the upload
  session_.record().body_pending = false;
  detach_body_reads();
  Report report = upload_->finish();
  if (report.aborted) return answer_aborted(report);
  answer_report(std::move(report), true);
}

// The header is already invalid: answer now from what is known, without reading the rest of the
// body, then close gracefully (the unread body makes the connection unusable).
template <class Stream>
void UploadExchange<Stream>::answer_early() {
  answer_report(upload_->snapshot(), false);
}

// What the validator held (header, table) goes back with the slot when the answer is built
// whole; a streamed answer still writes from the table, so the validator and its share of the
// budget stay until it is written.
template <class Stream>
void UploadExchange<Stream>::release_upload(bool keep_validator) {
  if (!keep_validator) upload_->release_validator();
  slot_.release();
}

// A report of up to kWholeReportBytes is answered whole, with a Content-Length; a larger one
// (a large inventory) is written while it is sent, a piece at a time (answer_streamed: chunked,
// or to HTTP/1.0 clients delimited by the connection's close). The first kWholeReportBytes are
// charged before they are written; a streamed answer holds them until it is sent.
template <class Stream>
void UploadExchange<Stream>::answer_report(Report report, bool complete) {
  ExchangeRecord& record = session_.record();
  record_validation(ctx_, record, report);
  const bool valid = report.valid;
  UploadFacts facts{record.id, upload_->options(), upload_->bytes_received(), complete,
                    complete && digest_ ? std::optional(digest_->finish()) : std::nullopt, cfg_.max_report_tensors,
                    cfg_.max_report_metadata, cfg_.policy};
  auto body = std::make_unique<UploadReport>(std::move(facts), std::move(report));
  session_.hold_anyway(kWholeReportBytes);  // what start() writes before a byte is sent
  if (body->start(kWholeReportBytes)) {
    std::string text = std::move(body->head());
    body.reset();
    release_upload(false);
    session_.release_held();  // answer_verdict charges the text itself
    return session_.answer_verdict(valid, std::move(text));
  }
  release_upload(true);
  session_.answer_streamed(valid, std::move(body));
}

// A limit of this service stopped the validation: a capacity answer, not a verdict.
template <class Stream>
void UploadExchange<Stream>::answer_aborted(const Report& report) {
  record_validation(ctx_, session_.record(), report);
  // Memory shared with other uploads comes back (503, retry); a size this service refuses
  // does not (413).
  const Problem p = report.aborted->kind == AbortKind::memory_budget ? Problem::memory_budget
                                                                     : Problem::validation_limit;
  session_.answer_problem(p, report.aborted->message, report.aborted->limit);
}

#define TG_INSTANTIATE(S) template class UploadExchange<S>;
TG_SESSION_STREAMS(TG_INSTANTIATE)
#undef TG_INSTANTIATE

}  // namespace tensorgate::service
