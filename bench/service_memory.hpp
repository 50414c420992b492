#pragma once
// The service's streamed upload without TCP, and SHA-256's own speed over a buffer in memory:
// the two figures the upload digest is held to (goal: at least 85% of the raw speed).
//
// Why without TCP: on loopback the client shares the server's cores, and a server that reads
// slower than the client sends (it does while it hashes) runs the client's TCP sends in its own
// thread, in softirq, when each read reopens the window (bench/README.md, "Service"). That cost
// is not the service's: a real client is on another machine. Here the real Session reads from a
// function (tensorgate::service::serve_from_source) that copies the bytes as recv would, and
// hashes on the service's worker threads as `serve` does.
#include <cstdint>
#include <string>

namespace tgbench {

// One upload: `prefix` (request head and the file's header) and then body bytes up to `total`
// file bytes, through the service's session; prints the figure as JSON (service_load's format).
int memory_upload(const std::string& prefix, std::uint64_t body_bytes, std::uint64_t total, const char* label);

// tensorgate::Sha256 (the upload digest's own call) over a 1 MiB buffer until `total` bytes;
// prints the figure as JSON.
int raw_sha256(std::uint64_t total);

}  // namespace tgbench
