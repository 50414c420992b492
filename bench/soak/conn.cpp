#include "conn.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/asio/buffer.hpp>
#include <boost/beast/core/buffers_range.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/json/parse.hpp>

#include <algorithm>
#include <cerrno>
#include <memory>
#include <type_traits>

namespace soak {
namespace http = boost::beast::http;
namespace {

constexpr std::size_t kBodyHead = 64 * 1024;

int remaining_ms(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return static_cast<int>(std::clamp<long long>(left.count(), 0, 1'000'000));
}

// Where a response body goes: its first bytes kept, a 200/422 JSON body digested.
struct BodySink {
  std::string head;
  std::uint64_t bytes = 0;
  std::unique_ptr<ReportDigester> digester;
  void put(std::string_view piece) {
    bytes += piece.size();
    if (head.size() < kBodyHead) head.append(piece.substr(0, kBodyHead - head.size()));
    if (digester) digester->write(piece);
  }
};

struct SinkBody {
  struct value_type {
    BodySink* sink = nullptr;
  };
  // Beast constructs the reader with the parser, before the header is parsed: the sink and
  // the status are looked at in init(), once the header is there.
  class reader {
   public:
    template <bool isRequest, class Fields>
    reader(http::header<isRequest, Fields>& h, value_type& body) : body_(body) {
      if constexpr (!isRequest && std::is_same_v<Fields, http::fields>) header_ = &h;
    }
    void init(const boost::optional<std::uint64_t>&, boost::system::error_code& ec) {
      sink_ = body_.sink;
      const unsigned status = header_->result_int();
      const bool json = (*header_)[http::field::content_type].starts_with("application/json");
      if (json && (status == 200 || status == 422))
        sink_->digester = std::make_unique<ReportDigester>(ReportLayout::service);
      ec = {};
    }
    template <class Buffers>
    std::size_t put(const Buffers& buffers, boost::system::error_code& ec) {
      std::size_t n = 0;
      for (const auto b : boost::beast::buffers_range_ref(buffers)) {
        sink_->put(std::string_view(static_cast<const char*>(b.data()), b.size()));
        n += b.size();
      }
      ec = {};
      return n;
    }
    void finish(boost::system::error_code& ec) { ec = {}; }

   private:
    http::header<false, http::fields>* header_ = nullptr;
    value_type& body_;
    BodySink* sink_ = nullptr;
  };
};

std::string problem_code(const std::string& body) {
  boost::system::error_code ec;
  const boost::json::value v = boost::json::parse(body, ec);
  if (ec || !v.is_object()) return "";
  const auto* c = v.as_object().if_contains("code");
  return c && c->is_string() ? std::string(c->as_string()) : "";
}

}  // namespace

Conn::Conn(std::uint16_t port) {
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) return;
  int one = 1;
  ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd_);
    fd_ = -1;
  }
}

Conn::~Conn() {
  if (fd_ >= 0) ::close(fd_);
}

SendResult Conn::send_rest(std::vector<std::string_view>& parts, Clock::time_point deadline,
                           bool stop_on_answer) {
  const short events = stop_on_answer ? (POLLIN | POLLOUT) : POLLOUT;
  std::size_t done = 0;
  struct Consume {  // drops the parts sent, whatever way the loop ends
    std::vector<std::string_view>& parts;
    std::size_t& done;
    ~Consume() { parts.erase(parts.begin(), parts.begin() + static_cast<std::ptrdiff_t>(done)); }
  } consume{parts, done};
  for (; done < parts.size(); ++done) {
    std::string_view& part = parts[done];
    while (!part.empty()) {
      pollfd p{fd_, events, 0};
      if (::poll(&p, 1, remaining_ms(deadline)) <= 0) return SendResult::failed;
      if (p.revents & (POLLIN | POLLHUP | POLLERR)) return SendResult::answered;
      const std::size_t n = std::min<std::size_t>(part.size(), 1 << 20);
      const ssize_t sent = ::send(fd_, part.data(), n, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (sent < 0 && (errno == EAGAIN || errno == EINTR)) continue;
      if (sent <= 0) return SendResult::answered;  // the server closed: there may be an answer
      part.remove_prefix(static_cast<std::size_t>(sent));
    }
  }
  return SendResult::sent;
}

Response Conn::read_response(Clock::time_point deadline) {
  const Clock::time_point start = Clock::now();
  BodySink sink;
  http::response_parser<SinkBody> parser;
  parser.body_limit(boost::none);
  parser.get().body().sink = &sink;
  Response out;
  std::vector<char> buf(256 * 1024);
  for (;;) {
    while (!pending_.empty() && !parser.is_done()) {
      boost::system::error_code ec;
      const std::size_t used = parser.put(boost::asio::buffer(pending_), ec);
      pending_.erase(0, used);
      if (ec == http::error::need_more) break;
      if (ec) return out;
    }
    if (parser.is_done()) break;
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, remaining_ms(deadline)) <= 0) {
      out.timed_out = true;
      return out;
    }
    const ssize_t n = ::recv(fd_, buf.data(), buf.size(), 0);
    if (n <= 0) {
      boost::system::error_code ec;
      if (n == 0 && parser.got_some()) parser.put_eof(ec);
      if (!parser.is_done()) return out;
      break;
    }
    pending_.append(buf.data(), static_cast<std::size_t>(n));
  }
  const auto& res = parser.get();
  out.status = res.result_int();
  out.keep_alive = parser.keep_alive();
  out.content_type = std::string(res[http::field::content_type]);
  out.body_bytes = sink.bytes;
  out.body_head = std::move(sink.head);
  out.latency = Clock::now() - start;
  if (sink.digester) {
    if (!sink.digester->finish() || sink.digester->reports().size() != 1)
      out.report_error = sink.digester->error().empty() ? "not one report" : sink.digester->error();
    else
      out.report = sink.digester->reports().front();
  } else if (out.content_type.starts_with("application/problem+json")) {
    out.problem_code = problem_code(out.body_head);
  }
  return out;
}

bool Conn::wait_closed(Clock::time_point deadline, bool read) {
  std::vector<char> buf(64 * 1024);
  for (;;) {
    pollfd p{fd_, static_cast<short>(read ? POLLIN : POLLRDHUP), 0};
    if (::poll(&p, 1, remaining_ms(deadline)) <= 0) return false;
    if (!read) return true;  // POLLRDHUP, POLLHUP or POLLERR: the server is done
    const ssize_t n = ::recv(fd_, buf.data(), buf.size(), 0);
    if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) return true;
  }
}

void Conn::reset() {
  if (fd_ < 0) return;
  linger l{1, 0};
  ::setsockopt(fd_, SOL_SOCKET, SO_LINGER, &l, sizeof l);
  ::close(fd_);
  fd_ = -1;
}

bool Conn::readable_within(int ms) {
  pollfd p{fd_, POLLIN, 0};
  return ::poll(&p, 1, ms) > 0;
}

}  // namespace soak
