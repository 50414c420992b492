#pragma once
// The stream types a Session runs over, listed once. The session and its exchanges are
// templates over the stream (the tests and the fuzzer drive the same code in memory); their
// member functions are defined in .cpp files, each of which ends with an explicit
// instantiation for every type of this list:
//   - beast::tcp_stream: the service's connections (listener.cpp);
//   - MemoryStream, beast::test::stream: the tests' and the fuzzer's in-memory client
//     (in_memory.cpp);
//   - SourceStream: the benchmark's upload without TCP (source_stream.hpp).
#include <boost/beast/_experimental/test/stream.hpp>

#include "net.hpp"
#include "source_stream.hpp"
#include "stream_ops.hpp"

namespace tensorgate::service {

using MemoryStream = beast::test::stream;

// beast::test::stream has no clock: deadlines are no-ops, and the client's close ends every read.
template <>
struct StreamOps<MemoryStream> {
  static void set_deadline(MemoryStream&, Millis) {}
  static void shutdown_send(MemoryStream&) {}
  static void close(MemoryStream& s) { s.close(); }
};

}  // namespace tensorgate::service

// X(stream type) once for each stream type: `TG_SESSION_STREAMS(X)` at the end of a .cpp file
// that defines members of a template over the stream.
#define TG_SESSION_STREAMS(X)               \
  X(::boost::beast::tcp_stream)             \
  X(::tensorgate::service::MemoryStream)    \
  X(::tensorgate::service::SourceStream)
