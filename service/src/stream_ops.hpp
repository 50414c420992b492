#pragma once
// What the session needs from its stream beyond reads and writes, per stream type: deadlines,
// half-close and close. The service uses beast::tcp_stream; the in-memory harnesses specialize
// this for beast::test::stream (in_memory.cpp: tests, fuzzer) and SourceStream (source_stream.hpp:
// the benchmark's upload without TCP), which have no clock.
#include "net.hpp"
#include "tensorgate/service/config.hpp"

namespace tensorgate::service {

template <class Stream>
struct StreamOps;

template <>
struct StreamOps<beast::tcp_stream> {
  // Beast's tcp_stream closes the socket when the deadline passes; the pending operation then
  // completes with beast::error::timeout.
  static void set_deadline(beast::tcp_stream& s, Millis d) { s.expires_after(d); }
  static void shutdown_send(beast::tcp_stream& s) {
    error_code ec;
    s.socket().shutdown(tcp::socket::shutdown_send, ec);
  }
  static void close(beast::tcp_stream& s) {
    error_code ec;
    s.socket().shutdown(tcp::socket::shutdown_both, ec);
    s.close();
  }
};

}  // namespace tensorgate::service
