#pragma once
// POST /v1/check-model: the hub sends a model's config, index and the reports /v1/validate gave
// its files; the answer is the cross-file report, 200 valid or 422 invalid. Guarded like an
// upload: it takes an upload slot, its body is charged to the memory budget as it arrives
// (within max_check_model_bytes) and read at the minimum rate, and its parse (whose DOM and the
// parser's stack are charged too: up to ~25x the text each) runs on a worker thread, never on
// the event loop.
//
// The exchange owns the body's parser, the slot and the rate window; the session (the
// transport) holds its memory share and writes the answer.
#include <cstdint>
#include <optional>

#include "hygiene.hpp"
#include "net.hpp"
#include "rate_window.hpp"
#include "upload_slot.hpp"
#include "tensorgate/model_dir.hpp"

namespace tensorgate::service {

template <class Stream>
class Session;

template <class Stream>
class CheckModelExchange {
 public:
  CheckModelExchange(Session<Stream>& session, std::uint64_t epoch);
  CheckModelExchange(const CheckModelExchange&) = delete;
  CheckModelExchange& operator=(const CheckModelExchange&) = delete;

  // The header's checks, then the body (`head` is taken over once the request is admitted).
  void start(HeadParser& head);
  // The body's next bytes (also after `100 Continue`).
  void read();

 private:
  using Parser = http::request_parser<http::string_body>;

  void on_read(error_code ec, std::size_t n);
  void check();  // the whole body, on a worker
  void answer(const CheckModelResult& result);

  Session<Stream>& session_;
  ServiceContext& ctx_;
  const ServiceConfig& cfg_;
  const std::uint64_t epoch_;
  UploadSlot slot_;
  std::optional<Parser> parser_;
  std::optional<RateWindow> rate_;
};

}  // namespace tensorgate::service
