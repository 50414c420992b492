#pragma once
// The remote checks' bounds and settings (docs/remote.md), each with its default and the reason
// for it. The command line sets the ones a user may need to change (tensorgate check --help).
#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tensorgate::remote {

using Millis = std::chrono::milliseconds;

struct RemoteOptions {
  // Extra request headers (--header "Name: value"; TENSORGATE_TOKEN becomes "Authorization:
  // Bearer ..."). Sent only to the origin of the URL given: a redirect to another origin (a CDN's
  // signed URL) goes without them. Never printed or logged.
  std::vector<std::pair<std::string, std::string>> headers;
  // A PEM file of certificates trusted besides the system store (--ca-file).
  std::string ca_file;

  // Connecting, and again the TLS handshake (--connect-timeout). Name lookups are the system
  // resolver's (getaddrinfo), with its own timeouts; IP literals are not looked up.
  Millis connect_timeout{10'000};
  // Longest wait for any one read or write once connected (--read-timeout): a stalled server
  // is given up on after this.
  Millis read_timeout{30'000};
  // After the first read_timeout of an exchange, its bytes must keep arriving at least this fast
  // on average: a server that trickles a byte per read_timeout cannot hold a check forever.
  std::uint64_t min_bytes_per_second = 1024;

  // Retries of one request answered 429 or 5xx (--retries), waiting as Retry-After says or
  // backing off exponentially from retry_backoff (doubling, at most max_backoff) when it says
  // nothing. A Retry-After longer than max_retry_after is not waited for: the answer is an error.
  unsigned retries = 4;
  Millis retry_backoff{500};
  Millis max_backoff{8'000};
  Millis max_retry_after{60'000};

  // Redirects followed for one request (browsers stop at 20, curl -L at 50; hubs use one or
  // two). https never redirects to http.
  unsigned max_redirects = 10;
  // A response's status line and headers; real servers and CDNs send a few KB.
  std::uint32_t max_header_bytes = 64 * 1024;
  // Interim (1xx) responses before the real one.
  unsigned max_interim_responses = 8;
  // The body of a redirect or an error answer is read (to keep the connection) up to this;
  // past it the connection is closed instead.
  std::uint64_t max_discard_bytes = 64 * 1024;

  // Range windows: the first request asks for first_window bytes (a safetensors header of a few
  // KB and the GGUF metadata of small models in one round trip); later windows double, up to
  // max_window, and are never smaller than what the validator says it still needs.
  std::uint64_t first_window = 64 * 1024;
  std::uint64_t max_window = 16 * 1024 * 1024;

  // Shards one remote repository's index may name: each is a request, so a hostile index of a
  // million names is refused, not fetched. The largest public checkpoints have a few hundred.
  std::uint64_t max_shards = 4096;
};

}  // namespace tensorgate::remote
