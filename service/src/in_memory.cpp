#include "tensorgate/service/in_memory.hpp"

#include "session.hpp"
#include "session_streams.hpp"

namespace tensorgate::service {

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

struct InMemoryConnection::State {
  State(const ServiceConfig& config, Receiver r)
      : ctx(config, nullptr, "memory"), client(ioc), received(std::move(r)) {}
  net::io_context ioc{1};
  ServiceContext ctx;
  MemoryStream client;
  Receiver received;
  bool closed = false;

  // What the server wrote goes to the receiver and out of the stream after every handler: the
  // test stream itself never makes a writer wait, and would otherwise hold a whole answer.
  void deliver() {
    if (client.buffer().size() == 0) return;
    received(client.str());
    client.buffer().consume(client.buffer().size());
  }
  void run_ready() {  // every handler that can run now; the server then waits for the client
    ioc.restart();
    while (ioc.poll_one()) deliver();
  }
};

InMemoryConnection::InMemoryConnection(const ServiceConfig& config, Receiver received)
    : state_(std::make_unique<State>(config, std::move(received))) {
  MemoryStream server(state_->ioc);
  server.connect(state_->client);
  server.write_size(config.read_buffer_bytes);  // a socket's write takes a buffer's worth
  std::make_shared<Session<MemoryStream>>(state_->ctx, std::move(server), "memory")->run();
  state_->run_ready();
}

InMemoryConnection::~InMemoryConnection() { close(); }

void InMemoryConnection::send(std::string_view bytes) {
  net::write(state_->client, net::buffer(bytes.data(), bytes.size()));
  state_->run_ready();
}

void InMemoryConnection::close() {
  if (state_->closed) return;
  state_->closed = true;
  state_->client.close();
  state_->ioc.restart();
  while (state_->ioc.run_one()) state_->deliver();
}

std::int64_t InMemoryConnection::budget_held() const {
  return state_->ctx.metrics.header_budget_in_use.load();
}

void serve_from_source(const ServiceConfig& config, Source source, InMemoryConnection::Receiver received) {
  net::io_context ioc(1);
  ServiceContext ctx(config, nullptr, "memory");
  net::thread_pool workers(worker_thread_count(config));  // joined before the io_context its jobs post back to
  ctx.workers = &workers;
  SourceStream stream(ioc, std::move(source), std::move(received));
  std::make_shared<Session<SourceStream>>(ctx, std::move(stream), "memory")->run();
  ioc.run();  // until the session has closed its stream
  workers.join();
  ioc.restart();
  ioc.run();  // what a job still running then posted back: the session ends before `ctx` does
}

}  // namespace tensorgate::service
