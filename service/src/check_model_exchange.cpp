#include "check_model_exchange.hpp"

#include <memory>
#include <string>

#include "session.hpp"
#include "session_streams.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate::service {

template <class Stream>
CheckModelExchange<Stream>::CheckModelExchange(Session<Stream>& session, std::uint64_t epoch)
    : session_(session), ctx_(session.context()), cfg_(ctx_.config), epoch_(epoch) {}

template <class Stream>
void CheckModelExchange<Stream>::start(HeadParser& head) {
  const RequestHeader& req = head.get();
  if (const auto p = session_.refuse_body()) return session_.answer_problem(*p);
  const boost::optional<std::uint64_t> length = head.content_length();
  if (length && *length > cfg_.max_check_model_bytes) return session_.answer_too_large(cfg_.max_check_model_bytes);
  if (!slot_.take(ctx_)) return session_.answer_problem(Problem::over_capacity);
  const bool wants_continue = expects_continue(req);
  parser_.emplace(std::move(head));
  parser_->body_limit(cfg_.max_check_model_bytes);
  session_.buffer().reserve(cfg_.read_buffer_bytes);
  rate_.emplace(cfg_.min_body_rate_bytes_per_second, cfg_.min_body_rate_window);
  if (wants_continue && !parser_->is_done()) return session_.send_continue();
  read();
}

template <class Stream>
void CheckModelExchange<Stream>::read() {
  if (parser_->is_done()) return check();
  session_.set_deadline(cfg_.body_idle_timeout);
  http::async_read_some(session_.stream(), session_.buffer(), *parser_,
                        session_.template resume<CheckModelExchange>(epoch_, &CheckModelExchange::on_read));
}

// A read's errors end the exchange (answered, or aborted without an answer: either returns at
// once, since the session then ends this exchange).
template <class Stream>
void CheckModelExchange<Stream>::on_read(error_code ec, std::size_t) {
  if (ec == beast::error::timeout) return session_.abort_exchange(408, "timeout-body", "body");
  if (ec == http::error::body_limit) return session_.answer_too_large(cfg_.max_check_model_bytes);
  if (client_went_away(ec)) return session_.abort_exchange(499, "client-closed", {});
  if (ec) return session_.answer_problem(Problem::bad_request, "malformed body");
  // What has arrived is charged, never what Content-Length announces.
  if (!session_.hold(parser_->get().body().capacity())) {
    session_.record().body_pending = true;
    return session_.answer_problem(Problem::memory_budget);
  }
  if (parser_->is_done()) return check();
  if (rate_->too_slow(parser_->get().body().size())) return session_.answer_too_slow();
  read();
}

template <class Stream>
void CheckModelExchange<Stream>::check() {
  session_.record().body_pending = false;
  auto result = std::make_shared<CheckModelResult>();
  auto body = std::make_shared<std::string>(std::move(parser_->get().body()));
  parser_.reset();
  Limits limits;
  limits.directory.max_json_bytes = cfg_.max_check_model_bytes;
  limits.policy = cfg_.policy;
  ctx_.offload(
      [result, body, limits, budget = &ctx_.budget] { *result = check_model_request(*body, limits, budget); },
      session_.stream().get_executor(),
      session_.template resume<CheckModelExchange>(epoch_, [result](CheckModelExchange& e) { e.answer(*result); }));
}

template <class Stream>
void CheckModelExchange<Stream>::answer(const CheckModelResult& result) {
  session_.release_held();  // the request's body is parsed: the report now takes its place
  slot_.release();
  if (result.budget_refused) return session_.answer_problem(Problem::memory_budget, result.error);
  if (!result.report) return session_.answer_problem(Problem::bad_check_model, result.error);
  std::string body;
  {
    JsonWriter w([&body](std::string_view s) { body.append(s); });
    w.begin_object();
    w.field("schema", "tensorgate.check-model/1");
    w.field("request_id", session_.record().id);
    if (cfg_.policy) write_policy_identity(w, cfg_.policy->identity);
    write_directory_report_fields(w, *result.report);
    w.end_object();
  }
  body.push_back('\n');
  session_.answer_verdict(result.report->valid, std::move(body));
}

#define TG_INSTANTIATE(S) template class CheckModelExchange<S>;
TG_SESSION_STREAMS(TG_INSTANTIATE)
#undef TG_INSTANTIATE

}  // namespace tensorgate::service
