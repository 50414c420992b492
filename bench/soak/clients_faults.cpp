// The clients that misbehave: stalls, resets, slowloris headers, answers never read, idle
// connections. Each counts what the server must have counted for it (Tally::unobserved), so
// soak.py can check /metrics against what was sent.
#include <algorithm>
#include <thread>

#include "clients.hpp"

namespace soak {

void upload_client(Run& run, const std::vector<const SoakFile*>& pool, Rng& rng);
void pipeline_client(Run& run, Rng& rng);

namespace {

constexpr const char* kValidate = "/v1/validate";

std::size_t between(Rng& rng, std::size_t lo, std::size_t hi) {
  return std::uniform_int_distribution<std::size_t>(lo, hi)(rng);
}

Clock::time_point wait_until(const Run& run) {
  return std::min(Clock::now() + run.fault_wait, run.end);
}

// Sends an upload's header with `Expect: 100-continue` and waits for the 100: then the server has
// read the header and holds an upload slot. False (the answer judged) when it answered otherwise.
bool start_upload(Run& run, Conn& c, const UploadPlan& plan) {
  const Clock::time_point deadline = Clock::now() + run.request_timeout;
  if (c.send(upload_head(plan), deadline) != SendResult::sent) {
    judge_upload(run, plan, read_final(c, deadline));
    return false;
  }
  const Response r = c.read_response(deadline);
  if (r.status == 100) return true;
  judge_upload(run, plan, r);
  return false;
}

// Counts the body bytes about to be sent (an upper bound for the server's body byte counter).
std::vector<std::string_view> offered(Run& run, std::vector<std::string_view> parts) {
  std::uint64_t n = 0;
  for (const auto part : parts) n += part.size();
  run.tally.add("body_bytes_offered", n);
  return parts;
}

UploadPlan fault_plan(const SoakFile* f, Rng& rng) {
  UploadPlan p = random_plan(f, rng);
  p.chunked = false;
  p.expect = true;
  return p;
}

// A header and part of a valid body, then silence: the server must cut it at its idle deadline
// (408, no answer).
void stall_client(Run& run, Rng& rng) {
  while (Clock::now() < run.end && !run.small_valid.empty()) {
    Conn c(run.port);
    const UploadPlan p = fault_plan(pick(run.small_valid, rng), rng);
    if (!connected(run, c) || !start_upload(run, c, p)) continue;
    std::vector<std::string> storage;
    const std::size_t part = between(rng, 0, p.file->bytes.size() / 2);
    if (c.send(offered(run, upload_body(p, rng, storage, part)), Clock::now() + run.request_timeout) != SendResult::sent) {
      run.tally.problem("stall-send", p.file->name);
      continue;
    }
    const Response r = c.read_response(wait_until(run));
    if (r.status != 0) {
      judge_upload(run, p, r);  // a capacity answer while the header arrived: fine
      if (r.status != 503 && r.status != 413) run.tally.problem("stall-answered", std::to_string(r.status));
    } else if (r.timed_out) {
      run.tally.unobserved(kValidate, {408, 499});  // the run ended first: we close
      run.tally.add("stalls_closed_by_us");
    } else {
      run.tally.unobserved(kValidate, {408});
      run.tally.add("stalls_cut");
    }
  }
}

// A header and part of a valid body (small or worst-case), then a TCP reset. Capacity answers
// (503, or 413 validation-limit) may come while the header arrives: wherever the server may have
// answered, both are allowed.
void reset_client(Run& run, Rng& rng) {
  while (Clock::now() < run.end && !run.small_valid.empty()) {
    Conn c(run.port);
    const bool worst = !run.worst_valid.empty() && between(rng, 0, 3) == 0;
    const UploadPlan p = fault_plan(pick(worst ? run.worst_valid : run.small_valid, rng), rng);
    if (!connected(run, c) || !start_upload(run, c, p)) continue;
    std::vector<std::string> storage;
    const std::size_t part = between(rng, 0, p.file->bytes.size() * 7 / 10);
    const SendResult sent = c.send(offered(run, upload_body(p, rng, storage, part)), Clock::now() + run.request_timeout);
    if (sent == SendResult::answered) {  // e.g. 503 memory-budget while the header arrived
      judge_upload(run, p, read_final(c, Clock::now() + run.request_timeout));
      continue;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(between(rng, 0, 50)));
    c.reset();
    run.tally.unobserved(kValidate, {499, 503, 413});
    run.tally.add("resets");
  }
}

// A request header trickled one byte at a time: the header deadline must close it (408).
void slowloris_client(Run& run, Rng&) {
  while (Clock::now() < run.end) {
    Conn c(run.port);
    if (!connected(run, c)) continue;
    const Clock::time_point deadline = Clock::now() + run.request_timeout;
    if (c.send("POST /v1/validate HTTP/1.1\r\nHost: soak\r\nX-Slow: ", deadline) != SendResult::sent)
      continue;
    bool cut = false;
    const Clock::time_point give_up = wait_until(run);
    while (!cut && Clock::now() < give_up) {
      if (c.readable_within(static_cast<int>(run.slowloris_interval.count()))) {
        cut = true;
        break;
      }
      cut = c.send("a", deadline) != SendResult::sent;
    }
    if (cut && c.wait_closed(deadline, true)) {
      run.tally.unobserved("other", {408});
      run.tally.add("slowloris_cut");
    } else {
      run.tally.unobserved("other", {408, 499});
      run.tally.add("slowloris_closed_by_us");
    }
  }
}

// A whole upload whose answer is never read: the server must finish or time out the write and
// close, and count the answer it gave.
void noread_client(Run& run, Rng& rng) {
  while (Clock::now() < run.end && !run.small.empty()) {
    Conn c(run.port);
    if (!connected(run, c)) continue;
    const bool worst = !run.worst.empty() && between(rng, 0, 1) == 0;
    UploadPlan p = random_plan(pick(worst ? run.worst : run.small, rng), rng);
    p.expect = false;
    p.tensors = true;  // the largest answer there is
    std::vector<std::string> storage;
    std::vector<std::string_view> parts = offered(run, upload_body(p, rng, storage));
    const std::string head = upload_head(p);
    parts.insert(parts.begin(), head);
    const SendResult sent = c.send(parts, Clock::now() + run.request_timeout);
    if (sent == SendResult::failed) run.tally.problem("noread-send", p.file->name);
    const bool closed = c.wait_closed(wait_until(run), false);
    c.reset();
    // The server counted the answer it gave; or, when the run ended before it was done with
    // the body (a reset, then), 499.
    const unsigned expected = p.file->expected_status() ? p.file->expected_status() : 503;
    if (closed) run.tally.unobserved(kValidate, {expected, 503, 413});
    else run.tally.unobserved(kValidate, {expected, 503, 413, 499});
    run.tally.add(closed ? "noread_closed_by_server" : "noread_closed_by_us");
  }
}

// Connects and sends nothing: the first request's header deadline closes it.
void idle_client(Run& run, Rng&) {
  while (Clock::now() < run.end) {
    Conn c(run.port);
    if (!connected(run, c)) continue;
    if (c.wait_closed(wait_until(run), true)) run.tally.add("idle_cut");
    else run.tally.add("idle_closed_by_us");
  }
}

}  // namespace

void run_client(Run& run, std::string_view kind, std::uint64_t seed) {
  Rng rng(seed);
  if (kind == "upload") upload_client(run, run.small, rng);
  else if (kind == "worst") upload_client(run, run.worst, rng);
  else if (kind == "pipeline") pipeline_client(run, rng);
  else if (kind == "stall") stall_client(run, rng);
  else if (kind == "reset") reset_client(run, rng);
  else if (kind == "slowloris") slowloris_client(run, rng);
  else if (kind == "noread") noread_client(run, rng);
  else if (kind == "idle") idle_client(run, rng);
}

}  // namespace soak
