#pragma once
// One client connection (docs/architecture.md, "service/"): the transport. Requests are read one
// at a time, each with a new parser; the header is checked before any body byte is read and
// routed. A route that reads a body has its own exchange (upload_exchange.hpp,
// check_model_exchange.hpp), which the session holds for the request and asks what it must know
// (the body bytes received); the GET routes are functions (routes.hpp). The session writes every
// answer, whole or streamed, then keeps the connection, closes it or lingers. Every read and
// write has a deadline.
//
// The class is a template over the stream so the tests and the fuzzer drive the same code in
// memory; session.cpp instantiates it for the stream types of session_streams.hpp.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "check_model_exchange.hpp"
#include "context.hpp"
#include "exchange.hpp"
#include "hygiene.hpp"
#include "net.hpp"
#include "piece_body.hpp"
#include "probe_reserve.hpp"
#include "problem.hpp"
#include "rate_window.hpp"
#include "stream_ops.hpp"
#include "upload.hpp"
#include "upload_exchange.hpp"

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

  // What a route's exchange uses of the transport.
  ServiceContext& context() { return ctx_; }
  Stream& stream() { return stream_; }
  beast::flat_buffer& buffer() { return buffer_; }
  ExchangeRecord& record() { return record_; }
  // Every deadline goes through here: a connection in the probes' reserve keeps the one deadline
  // set when it was accepted (probe_timeout), for its whole life.
  void set_deadline(Millis d);
  // The checks a header must pass before its body is read, in the order a client would fix them.
  std::optional<Problem> refuse_body();
  // `100 Continue`, then the exchange reads its body.
  void send_continue();
  // The exchange numbered `epoch` while it is the current one, else null: a completion from a
  // worker may come back after its exchange ended.
  template <class E>
  E* exchange_if(std::uint64_t epoch) {
    return epoch == epoch_ ? std::get_if<E>(&route_) : nullptr;
  }
  // A handler that runs `f` (a member function of E, or a callable taking E&) on exchange
  // `epoch` if it is still the current one, and keeps the session alive until then.
  template <class E, class F>
  auto resume(std::uint64_t epoch, F f) {
    return [self = this->shared_from_this(), epoch, f](auto... args) {
      if (E* e = self->template exchange_if<E>(epoch)) std::invoke(f, *e, args...);
    };
  }

  // Answers. Each writes the response, then ends the exchange.
  void answer_problem(Problem p, std::string detail = {}, std::string_view limit = {});
  void answer_too_large(std::uint64_t limit);  // 413 body-too-large
  void answer_too_slow();  // 408 for a body below the minimum rate, then close
  void answer_verdict(bool valid, std::string json_body);  // 200 or 422 with a report
  void answer_streamed(bool valid, std::unique_ptr<UploadReport> body);  // the same, in pieces
  // The connection ends without an answer (a deadline, the client left).
  void abort_exchange(unsigned status, std::string_view note, std::string_view timeout_phase);

  // The exchange's own share of the memory budget (a /v1/check-model body as it arrives, a
  // report until it is written), released when the exchange ends.
  bool hold(std::size_t total);        // raise the share to `total`; false when refused
  void hold_anyway(std::size_t bytes);  // add memory already taken (a built response)
  void release_held();

 private:
  using Ops = StreamOps<Stream>;

  // Waiting for a request, its header, the checks, the routing.
  void wait_request();
  void on_idle_read(error_code ec, std::size_t n);
  bool skip_empty_lines();
  void read_header();
  void on_header(error_code ec, std::size_t n);
  void handle_request();

  // Answers, the end of an exchange, closing.
  void answer(Response&& res);
  // Keep-alive or close (always when `must_close`: a body that the close delimits), X-Request-Id;
  // true: close.
  template <class Message>
  bool set_connection_fields(Message& res, bool must_close = false);
  void start_writing();
  void write_some_response();
  void on_write_some(error_code ec, std::size_t n);
  void on_write(error_code ec);
  void end_exchange(unsigned status, std::uint64_t bytes_sent, std::string_view note);
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
  ExchangeRecord record_;
  // The exchange of a route that reads a body, for one request; its number, epoch_, tells a
  // late completion from a worker that its exchange is over.
  std::variant<std::monostate, UploadExchange<Stream>, CheckModelExchange<Stream>> route_;
  std::uint64_t epoch_ = 0;
  std::optional<Response> res_;
  std::optional<http::response_serializer<http::string_body>> sr_;
  std::optional<StreamedResponse> streamed_;  // a streamed report instead of res_
  std::optional<http::response_serializer<PieceBody>> streamed_sr_;
  bool close_after_write_ = false;
  std::uint64_t written_ = 0;            // bytes of the response written so far
  std::size_t held_ = 0;                 // see hold()
  std::optional<RateWindow> write_rate_;  // the answer's minimum rate (min_write_rate_*)
  std::optional<http::response<http::empty_body>> continue_;
  std::uint32_t served_ = 0;
  std::size_t skipped_empty_ = 0;  // line breaks skipped before this request's line
  std::shared_ptr<ReserveSeat> seat_;  // in the probes' reserve: probe routes only, one request
  std::shared_ptr<void> place_;
  std::uint64_t lingered_ = 0;
};

}  // namespace tensorgate::service
