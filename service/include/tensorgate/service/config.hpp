#pragma once
// Every bound the service enforces, in one struct, each with its default. docs/service.md gives
// the reason for every default; `tensorgate serve --help` lists the flag for each.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "tensorgate/limits.hpp"  // Policy

namespace tensorgate::service {

using Millis = std::chrono::milliseconds;

struct ServiceConfig {
  // Where to listen. Port 0 picks an ephemeral port (tests).
  std::string host = "127.0.0.1";
  std::uint16_t port = 8080;
  // Threads running the event loop; 0 means one per core.
  unsigned threads = 0;
  // Threads that parse what is too heavy for an event-loop thread (a large safetensors header,
  // a /v1/check-model body), so that small requests and /livez never wait behind them; 0 means
  // one per core. Work waits for a free worker; the upload slots bound how much can wait.
  unsigned worker_threads = 0;

  // --- request framing ---------------------------------------------------------------------
  // Request line plus header fields. Above it: 431.
  std::uint32_t max_request_header_bytes = 16 * 1024;
  // The per-connection read buffer and largest single read. Also bounds what Beast 1.81 keeps for
  // one chunk header (extensions) or the trailer, which its header_limit does not cover.
  std::uint32_t read_buffer_bytes = 64 * 1024;
  // Largest body accepted: 64 GiB, above a hub's largest files (~50 GB). Above it: 413.
  std::uint64_t max_body_bytes = 64ull << 30;
  // Longest `name=` query value kept for the report.
  std::uint32_t max_name_bytes = 1024;
  // Largest POST /v1/check-model body: the config, the index and every weights file's report
  // with its tensor inventory, read whole. A 70B model's reports are a few MB. Above it: 413.
  std::uint64_t max_check_model_bytes = 64ull << 20;

  // --- validation --------------------------------------------------------------------------
  // Largest safetensors header buffered: the format's own 100,000,000. A lower value turns
  // larger (legal) headers into 413; headers above the format's cap are 422 (ST1).
  std::uint64_t max_safetensors_header_bytes = 100'000'000;
  // All uploads together may buffer this much header: 1 GiB, ten maximal headers. Past it: 503.
  std::uint64_t header_memory_budget_bytes = 1ull << 30;
  // Tensor inventory entries and metadata entries a report lists; past them the report counts
  // what it left out (summary.truncated). Real models have at most a few tens of thousands of
  // tensors per file (DeepSeek-V3, the largest inventory seen, ~92,000 in all its shards) and a
  // few dozen metadata entries; a hostile 100 MB header of a million tensors would otherwise
  // answer ~100 MB of JSON. Strings are cut at 4096 bytes whatever these are.
  std::uint64_t max_report_tensors = 131'072;
  std::uint64_t max_report_metadata = 4'096;
  // A chunked body must average at least this many bytes a chunk once it has sent
  // free_chunks chunks: each chunk costs ~2 us of parsing, so 1-byte chunks would let ~6 MB/s of
  // traffic take two cores. Past it: 400. Real clients send chunks of 8 KiB or more.
  std::uint64_t min_average_chunk_bytes = 1024;
  std::uint64_t free_chunks = 1024;
  // CPU time one heavy step of an upload (the parse of a safetensors header above 1 MiB) may take
  // on its worker thread. The worst header seen, 52 MB of 3.5 million metadata keys, takes ~2.5 s
  // here; a valid 100 MB header of a million tensors ~0.7 s. Past it: 413 validation-limit
  // (limit parse-cpu-deadline). 0 turns it off.
  Millis max_parse_cpu{10'000};
  // Uploads being read at once. Past it: 503.
  std::uint32_t max_concurrent_uploads = 128;

  // --- time ------------------------------------------------------------------------------------
  // From the first byte of a request to the end of its header fields.
  Millis header_timeout{10'000};
  // Longest wait for any body bytes (reset by every read).
  Millis body_idle_timeout{30'000};
  // Average body rate below which an upload is cut, measured over each window.
  std::uint64_t min_body_rate_bytes_per_second = 256 * 1024;
  Millis min_body_rate_window{30'000};
  // Idle time allowed between requests on a kept-alive connection (and before the first one).
  Millis keepalive_timeout{15'000};
  // Requests served on one connection before it is closed.
  std::uint32_t keepalive_max_requests = 1000;
  // Longest wait for the client to take any response bytes (reset by every write), and the
  // average rate a response must be read at, measured over each window: a reader that takes a
  // 20 MB report at 2 MB/s gets all of it; one that never reads is cut after write_timeout and
  // releases the memory its report held.
  Millis write_timeout{30'000};
  std::uint64_t min_write_rate_bytes_per_second = 64 * 1024;
  Millis min_write_rate_window{10'000};
  // After an early answer: how long and how much of the unread body is drained before closing.
  Millis linger_timeout{2'000};
  std::uint64_t linger_max_bytes = 16ull << 20;
  // After SIGTERM: how long in-flight uploads may go on.
  Millis drain_timeout{25'000};

  // --- capacity --------------------------------------------------------------------------------
  // Open connections. Past it a new connection goes to the probes' reserve (below), and past
  // that it gets 503 and is closed.
  std::uint32_t max_connections = 1000;
  // Connections admitted past max_connections for the probes (/livez, /readyz, /metrics) only;
  // any other request on them gets 503. Keeps an orchestrator's probes answering at the cap.
  // When all are taken, a new connection takes the place of the one that has waited longest
  // without a request (probe_reserve.hpp): idle sockets cannot keep a probe out.
  std::uint32_t probe_connections = 16;
  // The whole life of a connection in that reserve: its request, its one answer and its close.
  // A probe sends its request as it connects and reads a small answer; 1 s is ample on any
  // network a probe crosses, and short enough that a client holding its place while being
  // answered (a /metrics it does not read) holds it briefly.
  Millis probe_timeout{1'000};
  // Connections past max_connections still being answered with 503 (each for at most 1 s).
  // Past this, a new one is closed without an answer: a flood cannot hold sockets.
  std::uint32_t max_rejections_in_flight = 256;
  // Retry-After value (seconds) sent with every 503.
  std::uint32_t retry_after_seconds = 5;

  // --- the web page ------------------------------------------------------------------------
  // GET / and /ui/*: the page for people (docs/service.md, "The web page"). `--no-ui` turns it
  // off (404) for a hub's internal deployment, where only machines call the API.
  bool ui = true;

  // --- the policy --------------------------------------------------------------------------
  // `policy = FILE` (docs/policy.md): read and parsed once at start, then applied to every
  // /v1/validate and /v1/check-model request and named in their answers; a file that cannot
  // be read or parsed stops the start. Null: the built-in lists alone.
  std::shared_ptr<const Policy> policy;

  // --- logging ---------------------------------------------------------------------------------
  // spdlog level name for the access log: "info" logs one line per request, "off" none.
  std::string log_level = "info";
};

// An error message when the configuration cannot work (e.g. a read buffer smaller than the
// header limit), or an empty string.
std::string check_config(const ServiceConfig& config);

}  // namespace tensorgate::service
