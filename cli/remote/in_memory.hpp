#pragma once
// The remote client over in-memory connections: no sockets, no threads, no clocks. Each
// connection the client opens reads the next of `answers` (what a server would send on it,
// then the server closes), at most `read_size` bytes per read (0: as much as is there). The
// fuzzer (fuzz/http_response_fuzzer.cpp) drives the client's response handling through it.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "connection.hpp"
#include "remote_options.hpp"

namespace tensorgate::remote {

class MemoryConnector : public Connector {
 public:
  // What the client wrote on each connection opened so far (its requests).
  virtual std::vector<std::string> requests() const = 0;
};

std::unique_ptr<MemoryConnector> make_memory_connector(std::vector<std::string> answers, std::size_t read_size,
                                                       const RemoteOptions& options);

}  // namespace tensorgate::remote
