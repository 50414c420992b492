#pragma once
// The service's request handling over an in-memory stream: no sockets, no threads, no clocks.
// The fuzzer (fuzz/http_request_fuzzer.cpp) feeds raw client bytes through it.
#include <cstddef>
#include <string>
#include <string_view>

#include "tensorgate/service/config.hpp"

namespace tensorgate::service {

// Runs one connection: `client_bytes` arrive at most `read_size` bytes per read (0: all at
// once), then the client closes its side. Returns every byte the server wrote. Deterministic
// when config.min_body_rate_bytes_per_second is 0.
std::string serve_in_memory(const ServiceConfig& config, std::string_view client_bytes,
                            std::size_t read_size = 0);

}  // namespace tensorgate::service
