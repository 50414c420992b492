#include "tcp_connect.hpp"

#include <boost/asio/connect.hpp>

namespace tensorgate::remote {

std::string whole_seconds(Millis d) { return std::to_string((d.count() + 999) / 1000) + " s"; }

std::optional<beast::tcp_stream> connect_tcp(net::io_context& ioc, const Url& url, const RemoteOptions& options,
                                             std::string& error) {
  const std::string where = url.host_header();
  tcp::resolver resolver(ioc);
  error_code ec;
  const auto flags = url.host_is_address ? tcp::resolver::numeric_host : tcp::resolver::flags();
  const auto endpoints = resolver.resolve(url.connect_host, std::to_string(url.port), flags, ec);
  if (ec) {
    error = "cannot resolve " + url.host + ": " + ec.message();
    return std::nullopt;
  }
  beast::tcp_stream stream(ioc);
  stream.expires_after(options.connect_timeout);
  ec = run_to_completion(ioc, [&](auto handler) { stream.async_connect(endpoints, handler); });
  if (ec) {
    error = ec == beast::error::timeout ? "cannot connect to " + where + ": timed out after " +
                                              whole_seconds(options.connect_timeout) + " (--connect-timeout)"
                                        : "cannot connect to " + where + ": " + ec.message();
    return std::nullopt;
  }
  stream.socket().set_option(tcp::no_delay(true), ec);
  stream.expires_never();
  return stream;
}

}  // namespace tensorgate::remote
