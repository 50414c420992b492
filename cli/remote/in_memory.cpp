#include "in_memory.hpp"

#include <boost/beast/_experimental/test/stream.hpp>

#include "stream_connection.hpp"

namespace tensorgate::remote {

using MemoryStream = beast::test::stream;

// No clock in memory: deadlines are no-ops, and the fuzzer stays deterministic.
template <>
struct StreamClock<MemoryStream> {
  static constexpr bool timed = false;
};

namespace {

class Memory final : public MemoryConnector {
 public:
  Memory(std::vector<std::string> answers, std::size_t read_size, const RemoteOptions& options)
      : answers_(std::move(answers)), read_size_(read_size), options_(options) {}

  std::unique_ptr<Connection> connect(const Url& url, std::string& error) override {
    if (next_ >= answers_.size()) {
      error = "cannot connect to " + url.host_header() + ": no more connections in memory";
      return nullptr;
    }
    auto peer = std::make_unique<MemoryStream>(ioc_);  // receives what the client writes
    MemoryStream client(ioc_);
    client.connect(*peer);
    if (read_size_) client.read_size(read_size_);
    client.append(answers_[next_++]);
    client.close_remote();  // the server closes once it has sent its bytes
    peers_.push_back(std::move(peer));
    return std::make_unique<StreamConnection<MemoryStream>>(ioc_, std::move(client), options_);
  }

  std::vector<std::string> requests() const override {
    std::vector<std::string> out;
    for (const auto& p : peers_) out.emplace_back(p->str());
    return out;
  }

 private:
  net::io_context ioc_{1};
  std::vector<std::string> answers_;
  std::size_t next_ = 0;
  std::size_t read_size_;
  const RemoteOptions& options_;
  std::vector<std::unique_ptr<MemoryStream>> peers_;
};

}  // namespace

std::unique_ptr<MemoryConnector> make_memory_connector(std::vector<std::string> answers, std::size_t read_size,
                                                       const RemoteOptions& options) {
  return std::make_unique<Memory>(std::move(answers), read_size, options);
}

}  // namespace tensorgate::remote
