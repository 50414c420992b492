#pragma once
// The soak's clients, one thread each, all on loopback. Each kind loops until the run ends:
//   upload    keep-alive uploads of the small files (corpus and samples), chunked or not,
//             with or without `Expect: 100-continue`, tensors and digest on or off; every
//             report compared with the offline check of the same bytes
//   worst     the same with the worst-case files (100 MB metadata values, 1,000,000-tensor
//             headers, GGUF with huge string arrays)
//   pipeline  several requests (GETs and small uploads) in one write, answers read in order
//   stall     a header and part of a body, then nothing: the idle deadline must cut it
//   reset     a header and part of a body, then a TCP reset
//   slowloris a request header trickled a byte at a time: the header deadline must cut it
//   noread    a whole upload whose answer is never read
//   idle      a connection that sends nothing
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "conn.hpp"
#include "files.hpp"
#include "tally.hpp"

namespace soak {

inline constexpr std::string_view kClientKinds[] = {
    "upload", "worst", "pipeline", "stall", "reset", "slowloris", "noread", "idle"};

struct Run {
  std::uint16_t port = 0;
  std::vector<SoakFile> files;
  std::vector<const SoakFile*> small, small_valid, worst, worst_valid;
  Clock::time_point end;                          // no request starts after this
  Clock::duration request_timeout{std::chrono::seconds(120)};  // to send, and to be answered
  Clock::duration fault_wait{std::chrono::seconds(60)};  // longest wait for the server to cut
  std::chrono::milliseconds slowloris_interval{250};
  Tally tally;
};

using Rng = std::mt19937_64;

// One client of `kind` until run.end.
void run_client(Run& run, std::string_view kind, std::uint64_t seed);

// --- shared by the kinds (clients_upload.cpp) ---------------------------------------------

struct UploadPlan {
  const SoakFile* file = nullptr;
  bool chunked = false;
  bool expect = false;  // Expect: 100-continue
  bool tensors = true;
  bool digest = true;
  bool put = false;
  bool close = false;  // Connection: close
  std::string id;      // X-Request-Id: the server's log line of a lost request is found by it
};

UploadPlan random_plan(const SoakFile* file, Rng& rng);
std::string upload_head(const UploadPlan& plan);
// The body as parts to send (chunk framing kept in `storage`); `limit` bytes of the file at
// most, without the last chunk when the body is cut short.
std::vector<std::string_view> upload_body(const UploadPlan& plan, Rng& rng,
                                          std::vector<std::string>& storage,
                                          std::size_t limit = static_cast<std::size_t>(-1));
// Checks one upload's answer against the offline report; counts it as observed.
void judge_upload(Run& run, const UploadPlan& plan, const Response& r);
// Reads the final answer, skipping 1xx.
Response read_final(Conn& c, Clock::time_point deadline);
const SoakFile* pick(const std::vector<const SoakFile*>& pool, Rng& rng);
// False (a problem counted, after a short pause) when the connection could not be made.
bool connected(Run& run, const Conn& c);
// Sends one upload on `c` and judges its answer; false when the connection cannot be reused.
bool upload_once(Run& run, Conn& c, const UploadPlan& plan, Rng& rng);

}  // namespace soak
