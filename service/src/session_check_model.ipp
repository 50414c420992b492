// Session: POST /v1/check-model: the hub sends a model's config, index and the reports
// /v1/validate gave its files; the answer is the cross-file report, 200 valid or 422 invalid.
// Guarded like an upload: it takes an upload slot, its body is charged to the memory budget as
// it arrives (within max_check_model_bytes) and read at the minimum rate, and its parse (whose
// DOM and the parser's stack are charged too: up to ~25x the text each) runs on a worker thread, never on the event loop.
// Included by session.hpp.
#pragma once

#include "tensorgate/model_dir.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate::service {

template <class Stream>
void Session<Stream>::start_check_model() {
  const RequestHeader& req = head_->get();
  if (const auto p = refuse_upload(req)) return answer_problem(*p);
  const boost::optional<std::uint64_t> length = head_->content_length();
  if (length && *length > cfg_.max_check_model_bytes)
    return answer_too_large(cfg_.max_check_model_bytes);
  if (!ctx_.try_begin_upload()) return answer_problem(Problem::over_capacity);
  holds_upload_slot_ = true;
  const bool wants_continue = expects_continue(req);
  json_.emplace(std::move(*head_));
  json_->body_limit(cfg_.max_check_model_bytes);
  head_.reset();
  buffer_.reserve(cfg_.read_buffer_bytes);
  ex_.window_start = Clock::now();
  ex_.window_bytes = 0;
  if (wants_continue && !json_->is_done()) return send_continue();
  read_json_body();
}

template <class Stream>
void Session<Stream>::read_json_body() {
  if (json_->is_done()) return answer_check_model();
  set_deadline(cfg_.body_idle_timeout);
  http::async_read_some(stream_, buffer_, *json_, bind(&Session::on_json_body));
}

template <class Stream>
void Session<Stream>::on_json_body(error_code ec, std::size_t) {
  if (ec == beast::error::timeout) return abort_exchange(408, "timeout-body", "body");
  if (ec == http::error::body_limit)
    return answer_too_large(cfg_.max_check_model_bytes);
  if (client_went_away(ec)) return abort_exchange(499, "client-closed", {});
  if (ec) return answer_problem(Problem::bad_request, "malformed body");
  // What has arrived is charged, never what Content-Length announces.
  if (!hold(json_->get().body().capacity())) {
    ex_.body_pending = true;
    return answer_problem(Problem::memory_budget);
  }
  if (json_->is_done()) return answer_check_model();
  if (too_slow(json_->get().body().size())) return answer_too_slow();
  read_json_body();
}

template <class Stream>
void Session<Stream>::answer_check_model() {
  ex_.body_pending = false;
  auto result = std::make_shared<CheckModelResult>();
  auto body = std::make_shared<std::string>(std::move(json_->get().body()));
  json_.reset();
  Limits limits;
  limits.directory.max_json_bytes = cfg_.max_check_model_bytes;
  ctx_.offload(
      [result, body, limits, budget = &ctx_.budget] { *result = check_model_request(*body, limits, budget); },
      stream_.get_executor(),
      [self = this->shared_from_this(), result] { self->answer_checked_model(*result); });
}

template <class Stream>
void Session<Stream>::answer_checked_model(const CheckModelResult& result) {
  release_held();  // the request's body is parsed: the report now takes its place
  if (holds_upload_slot_) {
    holds_upload_slot_ = false;
    ctx_.end_upload();
  }
  if (result.budget_refused) return answer_problem(Problem::memory_budget, result.error);
  if (!result.report) return answer_problem(Problem::bad_check_model, result.error);
  std::string body;
  {
    JsonWriter w([&body](std::string_view s) { body.append(s); });
    w.begin_object();
    w.field("schema", "tensorgate.check-model/1");
    w.field("request_id", ex_.id);
    write_directory_report_fields(w, *result.report);
    w.end_object();
  }
  body.push_back('\n');
  answer_verdict(result.report->valid, std::move(body));
}

}  // namespace tensorgate::service
