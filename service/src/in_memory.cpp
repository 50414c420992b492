#include "tensorgate/service/in_memory.hpp"

#include <boost/beast/_experimental/test/stream.hpp>

#include "session.hpp"

namespace tensorgate::service {

using MemoryStream = beast::test::stream;

// beast::test::stream has no clock: deadlines are no-ops, and the client's close ends every read.
template <>
struct StreamOps<MemoryStream> {
  static void set_deadline(MemoryStream&, Millis) {}
  static void shutdown_send(MemoryStream&) {}
  static void close(MemoryStream& s) { s.close(); }
};

template class Session<MemoryStream>;

std::string serve_in_memory(const ServiceConfig& config, std::string_view client_bytes,
                            std::size_t read_size) {
  net::io_context ioc(1);
  ServiceContext ctx(config, nullptr, "memory");
  MemoryStream server(ioc);
  MemoryStream client(ioc);
  server.connect(client);
  if (read_size) server.read_size(read_size);
  server.append(client_bytes);
  server.close_remote();  // the server sees EOF once it has read everything
  std::make_shared<Session<MemoryStream>>(ctx, std::move(server), "memory")->run();
  ioc.run();
  return std::string(client.str());
}

}  // namespace tensorgate::service
