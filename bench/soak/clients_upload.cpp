// The clients that expect answers: uploads (small and worst-case files) and pipelines.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <thread>

#include "clients.hpp"

namespace soak {
namespace {

bool chance(Rng& rng, double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; }
std::size_t between(Rng& rng, std::size_t lo, std::size_t hi) {
  return std::uniform_int_distribution<std::size_t>(lo, hi)(rng);
}

std::string hex(std::size_t n) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%zx\r\n", n);
  return buf;
}

std::atomic<std::uint64_t> next_id{1};

std::string describe(const UploadPlan& p) {
  return p.id + " " + p.file->name + (p.chunked ? " chunked" : " length") + (p.expect ? " expect" : "") +
         (p.tensors ? "" : " tensors=false") + (p.digest ? "" : " digest=none");
}

}  // namespace

bool connected(Run& run, const Conn& c) {
  if (c.ok()) return true;
  run.tally.problem("connect", "the server refused a connection");
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  return false;
}

const SoakFile* pick(const std::vector<const SoakFile*>& pool, Rng& rng) {
  return pool.empty() ? nullptr : pool[between(rng, 0, pool.size() - 1)];
}

UploadPlan random_plan(const SoakFile* file, Rng& rng) {
  UploadPlan p;
  p.file = file;
  p.chunked = chance(rng, 0.4);
  p.expect = chance(rng, 0.2);
  // The worst files' inventories are tens of MB of JSON: mostly without them.
  p.tensors = chance(rng, file->worst ? 0.3 : 0.7);
  p.digest = chance(rng, 0.8);
  p.put = chance(rng, 0.1);
  p.id = "soak-" + std::to_string(next_id.fetch_add(1));
  return p;
}

std::string upload_head(const UploadPlan& p) {
  std::string h = p.put ? "PUT" : "POST";
  h += " /v1/validate?name=" + p.file->query_name;
  if (!p.tensors) h += "&tensors=false";
  if (!p.digest) h += "&digest=none";
  h += " HTTP/1.1\r\nHost: soak\r\n";
  if (p.chunked) h += "Transfer-Encoding: chunked\r\n";
  else h += "Content-Length: " + std::to_string(p.file->bytes.size()) + "\r\n";
  if (p.expect) h += "Expect: 100-continue\r\n";
  if (p.close) h += "Connection: close\r\n";
  if (!p.id.empty()) h += "X-Request-Id: " + p.id + "\r\n";
  return h + "\r\n";
}

std::vector<std::string_view> upload_body(const UploadPlan& p, Rng& rng,
                                          std::vector<std::string>& storage, std::size_t limit) {
  std::string_view bytes = p.file->bytes.substr(0, std::min(limit, p.file->bytes.size()));
  const bool whole = bytes.size() == p.file->bytes.size();
  if (!p.chunked) return {bytes};
  // Chunks of every size: a run of tiny ones at the start now and then, then larger ones,
  // never more than ~2,000 per file.
  const std::size_t big = p.file->worst ? (1u << 20) : 16384;
  const std::size_t floor = std::max<std::size_t>(1, bytes.size() / 2000);
  storage.reserve(4096);
  std::vector<std::string_view> parts;
  const bool tiny_start = chance(rng, 0.3);
  std::size_t sent = 0;
  while (!bytes.empty()) {
    std::size_t n = tiny_start && sent < 64 ? between(rng, 1, 7) : between(rng, floor, big);
    n = std::min(n, bytes.size());
    storage.push_back(hex(n));
    parts.push_back(storage.back());
    parts.push_back(bytes.substr(0, n));
    parts.push_back("\r\n");
    bytes.remove_prefix(n);
    sent += n;
  }
  if (whole) parts.push_back("0\r\n\r\n");
  return parts;
}

Response read_final(Conn& c, Clock::time_point deadline) {
  for (;;) {
    Response r = c.read_response(deadline);
    if (r.status == 0 || r.status >= 200) return r;
  }
}

void judge_upload(Run& run, const UploadPlan& p, const Response& r) {
  const SoakFile& f = *p.file;
  run.tally.observed("/v1/validate", r.status);
  if (r.status == 0) return run.tally.problem("lost", describe(p) + (r.timed_out ? " (timed out)" : " (closed)"));
  if (r.status == 503 || (r.status == 413 && r.problem_code == "validation-limit"))
    return run.tally.capacity(r.problem_code);
  if (r.status != 200 && r.status != 422)
    return run.tally.problem("unexpected-status", describe(p) + " -> " + std::to_string(r.status) + " " + r.problem_code);
  if (!r.report) return run.tally.problem("report-unreadable", describe(p) + ": " + r.report_error);
  const ReportDigest& got = *r.report;
  if ((r.status == 200) != (got.valid == true))
    run.tally.problem("status-contradicts-report", describe(p) + " -> " + std::to_string(r.status));
  if (f.expected_status() == 0) return run.tally.add("offline_aborted_service_answered");
  const bool partial = got.complete == false;
  std::string diff = compare_reports(p.tensors ? f.offline : f.offline_no_tensors, got, partial);
  // An early answer to a chunked upload comes before the validator knows the size: a GGUF
  // count that the size refutes (GG1, found at once when the size is known) is still believed,
  // and a later error is reported instead. Same verdict, other findings: counted, not a failure.
  if (partial && p.chunked && !diff.empty() && diff.starts_with("findings")) {
    run.tally.add("early_chunked_other_findings");
    diff.clear();
  }
  if (!diff.empty()) run.tally.problem("changed-report", describe(p) + (partial ? " (early)" : "") + ": " + diff);
  if (r.status != f.expected_status())
    run.tally.problem("changed-verdict", describe(p) + " -> " + std::to_string(r.status));
  if (!partial && p.digest && got.sha256 != f.sha256) run.tally.problem("sha256", describe(p));
  if (got.bytes_received) run.tally.add("reported_body_bytes", *got.bytes_received);
  run.tally.compared(partial);
  run.tally.add(r.status == 200 ? "verdicts_valid" : "verdicts_invalid");
  run.tally.latency(f.worst, std::chrono::duration<double, std::milli>(r.latency).count());
}

bool upload_once(Run& run, Conn& c, const UploadPlan& p, Rng& rng) {
  const Clock::time_point deadline = Clock::now() + run.request_timeout;
  std::vector<std::string> storage;
  const std::string head = upload_head(p);
  std::vector<std::string_view> parts = upload_body(p, rng, storage);
  run.tally.add(p.chunked ? "uploads_chunked" : "uploads_length");
  if (p.expect) {
    if (c.send(head, deadline) != SendResult::sent) {
      judge_upload(run, p, read_final(c, deadline));
      return false;
    }
    // Wait briefly for 100 Continue (or an early final answer, e.g. 503), as curl does.
    if (c.readable_within(2000)) {
      Response r = c.read_response(deadline);
      if (r.status != 100) {
        judge_upload(run, p, r);
        return r.keep_alive;  // answered without reading a byte of the body
      }
    }
  } else {
    parts.insert(parts.begin(), head);
  }
  std::uint64_t body = 0;
  for (const auto part : parts) body += part.size();
  run.tally.add("body_bytes_offered", body);
  SendResult sent;
  Response r;
  for (;;) {
    sent = c.send_rest(parts, deadline);
    if (sent != SendResult::answered) break;
    r = c.read_response(deadline);  // an early answer, or a 100 Continue that came late
    if (r.status != 100) break;
  }
  if (sent == SendResult::failed) {
    run.tally.observed("/v1/validate", 0);
    run.tally.problem("send-failed", describe(p));
    return false;
  }
  if (sent == SendResult::sent) r = read_final(c, deadline);
  judge_upload(run, p, r);
  return sent == SendResult::sent && r.keep_alive;
}

// Keep-alive connections of 1 to 8 uploads each, from `pool`.
void upload_client(Run& run, const std::vector<const SoakFile*>& pool, Rng& rng) {
  while (Clock::now() < run.end && !pool.empty()) {
    Conn c(run.port);
    if (!connected(run, c)) continue;
    const std::size_t requests = between(rng, 1, 8);
    for (std::size_t i = 0; i < requests && Clock::now() < run.end; ++i) {
      UploadPlan p = random_plan(pick(pool, rng), rng);
      p.close = i + 1 == requests && chance(rng, 0.5);
      if (!upload_once(run, c, p, rng) || p.close) break;
    }
  }
}

// 2 to 6 requests in one write: GETs and uploads of small valid files, answered in order.
void pipeline_client(Run& run, Rng& rng) {
  static constexpr std::string_view kGets[] = {"/livez", "/readyz", "/v1/rules"};
  while (Clock::now() < run.end) {
    Conn c(run.port);
    if (!connected(run, c)) continue;
    const std::size_t n = between(rng, 2, 6);
    std::vector<UploadPlan> plans(n);
    std::vector<std::string> storage, gets(n);
    std::string wire;
    for (std::size_t i = 0; i < n; ++i) {
      const bool last = i + 1 == n;
      if (chance(rng, 0.5) && !run.small_valid.empty()) {
        plans[i] = random_plan(pick(run.small_valid, rng), rng);
        plans[i].chunked = plans[i].expect = false;
        plans[i].close = last;
        wire += upload_head(plans[i]);
        wire += plans[i].file->bytes;
        run.tally.add("body_bytes_offered", plans[i].file->bytes.size());
      } else {
        gets[i] = kGets[between(rng, 0, 2)];
        wire += "GET " + gets[i] + " HTTP/1.1\r\nHost: soak\r\n" + (last ? "Connection: close\r\n" : "") + "\r\n";
      }
    }
    const Clock::time_point deadline = Clock::now() + run.request_timeout;
    if (c.send(wire, deadline, false) != SendResult::sent) {
      run.tally.problem("pipeline-send", std::to_string(n) + " requests");
      continue;
    }
    run.tally.add("pipelines");
    for (std::size_t i = 0; i < n; ++i) {
      const Response r = read_final(c, deadline);
      if (plans[i].file) {
        judge_upload(run, plans[i], r);
      } else {
        run.tally.observed(gets[i], r.status);
        if (r.status != 200) run.tally.problem("pipeline-get", gets[i] + " -> " + std::to_string(r.status));
      }
      if (r.status == 0) {  // the rest cannot be read in order any more
        for (std::size_t j = i + 1; j < n; ++j) run.tally.problem("lost", "pipelined request after a lost one");
        break;
      }
      // An answer that closes the connection (a 503 before the body was read: what is left of
      // the body cannot be framed) ends the pipeline. The server reads none of the requests
      // after it, and a client must send them again (RFC 9112, 9.3.2): counted, not lost.
      if (!r.keep_alive && i + 1 < n) {
        run.tally.add("pipelined_after_close", n - i - 1);
        break;
      }
    }
  }
}

}  // namespace soak
