#pragma once
// The TCP half of every connection: resolve the URL's host, connect within --connect-timeout,
// Nagle off. Compiled into the executable (plain http) and into the TLS helper (under https),
// each with its own Asio.
#include <optional>
#include <string>

#include "beast.hpp"
#include "remote_options.hpp"
#include "url.hpp"

namespace tensorgate::remote {

// The connected stream, or nothing with `error` set ("cannot resolve ...", "cannot connect to
// ...: timed out after 10 s (--connect-timeout)").
std::optional<beast::tcp_stream> connect_tcp(net::io_context& ioc, const Url& url, const RemoteOptions& options,
                                             std::string& error);

// "10 s": a timeout as the errors name it, rounded up to whole seconds.
std::string whole_seconds(Millis d);

// Starts one asynchronous operation on `ioc` and runs it to completion.
template <class Start>
error_code run_to_completion(net::io_context& ioc, Start&& start) {
  error_code result = net::error::operation_aborted;
  start([&](const error_code& ec, auto&&...) { result = ec; });
  ioc.restart();
  ioc.run();
  return result;
}

}  // namespace tensorgate::remote
