// The upload digest's pipeline (service/src/upload_digest.hpp): past its first MiB the body is
// read into blocks and hashed on a worker, a queue of blocks at a time, and the upload's exchange reads no
// more once every block is taken; chunk headers read into a block are not hashed; and a whole
// upload through serve_from_source, the service with its workers and no socket (what
// bench/service_load.cpp's `memory` mode measures).
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "service_support.hpp"
#include "tensorgate/service/config.hpp"
#include "tensorgate/service/in_memory.hpp"
#include "tensorgate/sha256.hpp"
#include "upload_digest.hpp"

namespace tgservice {
namespace {

using tensorgate::CountingBudget;
using tensorgate::Sha256;
using tensorgate::service::UploadDigest;

constexpr std::size_t kRead = 64 * 1024;  // the default read-buffer-bytes
constexpr std::size_t kEach = UploadDigest::kBlockBytes + kRead;

// Distinct bytes, so that a block hashed twice or out of order changes the digest.
std::string body_of(std::size_t n) {
  std::string s(n, '\0');
  for (std::size_t i = 0; i < n; ++i) s[i] = static_cast<char>((i * 131 + i / 4099) & 0xff);
  return s;
}

// One read of `n` body bytes as the upload's exchange makes it: into the session's buffer (the bytes
// are put from there) until the digest wants the reads, then into the digest's fill block (the
// bytes are put from the block, where the parser finds them).
void read(UploadDigest& d, const char* body, std::size_t n) {
  if (d.wants_attach()) d.attach(nullptr, 0);
  if (!d.attached()) return d.put(body, n);
  ASSERT_GE(d.room().size(), n);
  std::copy_n(body, n, d.room().data());
  d.commit(n);
  d.put(d.unparsed().data(), n);
  d.consume(n);
}

// Reads of kRead bytes until the digest has no block left to fill; returns how many bytes it
// took.
std::size_t put_until_full(UploadDigest& d, const std::string& body, std::size_t from) {
  std::size_t at = from;
  while (at < body.size() && d.ready_for_more()) {
    const std::size_t n = std::min(kRead, body.size() - at);
    read(d, body.data() + at, n);
    at += n;
  }
  return at - from;
}

TEST(ServiceDigest, TheFirstMiBIsHashedInlineAndTakesNoBlock) {
  CountingBudget budget(1 << 30);
  UploadDigest d(&budget, kRead);
  const std::string body = body_of(UploadDigest::kInlineBytes);
  EXPECT_EQ(put_until_full(d, body, 0), body.size());
  EXPECT_FALSE(d.job_ready());
  EXPECT_FALSE(d.busy());
  EXPECT_EQ(budget.held(), 0u);
  EXPECT_EQ(d.finish(), Sha256::hex_of(body.data(), body.size()));
}

// kBlocks blocks past the first MiB, then the reads wait; the job frees them in order and calls
// back exactly once, for the block the upload's exchange waited for.
TEST(ServiceDigest, EveryBlockTakenStopsTheReadsUntilTheJobFreesOne) {
  CountingBudget budget(1 << 30);
  const std::string body = body_of(9 * UploadDigest::kBlockBytes + 12345);
  auto d = std::make_unique<UploadDigest>(&budget, kRead);
  std::size_t at = put_until_full(*d, body, 0);
  // The read that passes the first MiB is hashed inline (it is in the session's buffer); the
  // reads after it fill the blocks.
  EXPECT_EQ(at, UploadDigest::kInlineBytes + kRead + UploadDigest::kBlocks * UploadDigest::kBlockBytes);
  EXPECT_EQ(budget.held(), UploadDigest::kBlocks * kEach);
  EXPECT_FALSE(d->ready_for_more());  // asking again while nothing was freed changes nothing
  ASSERT_TRUE(d->job_ready());
  int freed = 0;
  auto job = d->take_job([&freed] { ++freed; });
  EXPECT_FALSE(d->job_ready());  // one job at a time
  EXPECT_TRUE(d->busy());
  job();
  job = nullptr;  // a job holds the blocks too (see the next test)
  EXPECT_EQ(freed, 1);
  EXPECT_FALSE(d->busy());
  // The rest, each queue drained by a job when the reads stop.
  while (at < body.size()) {
    at += put_until_full(*d, body, at);
    if (d->job_ready()) d->take_job([] {})();
  }
  ASSERT_TRUE(d->ready_for_more());
  if (d->job_ready()) d->take_job([] {})();
  EXPECT_FALSE(d->busy());
  EXPECT_EQ(d->finish(), Sha256::hex_of(body.data(), body.size()));
  d.reset();
  EXPECT_EQ(budget.held(), 0u);
}

// A job outlives its upload (answered early, or the client gone): the blocks' charge goes back
// when the last of the two ends.
TEST(ServiceDigest, AJobOutlivingItsUploadGivesTheBlocksBackWhenItEnds) {
  CountingBudget budget(1 << 30);
  const std::string body = body_of(3 * UploadDigest::kBlockBytes);
  auto d = std::make_unique<UploadDigest>(&budget, kRead);
  put_until_full(*d, body, 0);
  ASSERT_TRUE(d->ready_for_more());
  ASSERT_TRUE(d->job_ready());
  auto job = d->take_job([] {});
  d.reset();
  EXPECT_EQ(budget.held(), UploadDigest::kBlocks * kEach);
  job();
  job = nullptr;
  EXPECT_EQ(budget.held(), 0u);
}

TEST(ServiceDigest, RefusedByTheBudgetItHashesInlineToTheEnd) {
  CountingBudget budget(UploadDigest::kBlocks * kEach - 1);
  UploadDigest d(&budget, kRead);
  const std::string body = body_of(7 * UploadDigest::kBlockBytes + 5);
  EXPECT_EQ(put_until_full(d, body, 0), body.size());
  EXPECT_FALSE(d.job_ready());
  EXPECT_EQ(budget.held(), 0u);
  EXPECT_EQ(d.finish(), Sha256::hex_of(body.data(), body.size()));
}

// What wakes the upload's exchange: a freed block or a job's end. Counted, so that a wake-up between a
// check and the wait is not lost.
struct Events {
  std::mutex m;
  std::condition_variable cv;
  std::uint64_t count = 0;
  void add() {
    std::lock_guard lock(m);
    ++count;
    cv.notify_all();
  }
  std::uint64_t now() {
    std::lock_guard lock(m);
    return count;
  }
  void wait_past(std::uint64_t seen) {
    std::unique_lock lock(m);
    cv.wait(lock, [&] { return count != seen; });
  }
};

// Random body sizes and reads, with the jobs on a real thread, driven as the upload's exchange drives
// them: the digest is always the one-shot digest of the body alone, every block's charge goes
// back, and the exchange never waits for nothing (each wait ends). Each read holds up to three
// pieces of the body, each after up to 12 bytes of framing (a chunk header), and may end in
// framing the parser cannot take yet (a partial chunk header): it stays unparsed, in the next
// block when the block is handed on, and is taken by the next read.
TEST(ServiceDigest, RandomReadsWithChunkHeadersGiveTheBodysDigest) {
  std::mt19937_64 rng(29);
  for (int round = 0; round < 24; ++round) {
    CountingBudget budget(1 << 30);
    std::string body = body_of(static_cast<std::size_t>(rng() % (7 * UploadDigest::kBlockBytes)));
    for (char& c : body) c = static_cast<char>(c + round);
    {
      Events events;
      // One worker, as ServiceContext::offload runs a job: its end is an event too.
      boost::asio::thread_pool worker(1);
      UploadDigest d(&budget, kRead);
      // waits_for_digest(): queue a full block, start a job if none runs, then read on or wait.
      auto settle = [&](bool body_done) {
        for (;;) {
          const std::uint64_t seen = events.now();
          const bool room = d.ready_for_more();
          if (d.job_ready())
            boost::asio::post(worker, [job = d.take_job([&events] { events.add(); }), &events] {
              job();
              events.add();
            });
          if (room && !(body_done && d.busy())) return;
          events.wait_past(seen);
        }
      };
      std::string pending;  // framing read and not parsed yet (session's buffer or the block's)
      for (std::size_t at = 0; at < body.size();) {
        settle(false);
        if (d.wants_attach()) d.attach(pending.data(), pending.size());
        // One read: framing and pieces, within read-buffer-bytes with what is unparsed.
        std::string bytes;
        std::vector<std::pair<std::size_t, std::size_t>> pieces;  // offset in `bytes`, size
        std::size_t n = std::min<std::size_t>(1 + rng() % (kRead / 2), body.size() - at);
        for (int piece = 0; piece < 3 && n; ++piece) {
          bytes.append(rng() % 13, static_cast<char>(0xA5));
          const std::size_t k = piece == 2 ? n : std::min<std::size_t>(n, rng() % (n + 1));
          pieces.emplace_back(bytes.size(), k);
          bytes.append(body, at, k);
          at += k;
          n -= k;
        }
        const std::size_t tail = rng() % 9;
        bytes.append(tail, static_cast<char>(0x5A));
        if (!d.attached()) {
          for (const auto& [off, k] : pieces) d.put(bytes.data() + off, k);
          pending.assign(bytes, bytes.size() - tail, tail);
          continue;
        }
        ASSERT_GE(d.room().size(), bytes.size());
        std::copy(bytes.begin(), bytes.end(), d.room().data());
        d.commit(bytes.size());
        d.consume(pending.size());  // the last read's partial header, now whole
        std::size_t parsed = 0;     // of `bytes`
        for (const auto& [off, k] : pieces) {
          d.consume(off - parsed);  // the chunk header before the piece
          d.put(d.unparsed().data(), k);
          d.consume(k);
          parsed = off + k;
        }
        ASSERT_EQ(d.unparsed().size(), tail);
        pending.assign(bytes, bytes.size() - tail, tail);
      }
      settle(true);
      EXPECT_EQ(d.finish(), Sha256::hex_of(body.data(), body.size())) << round << " " << body.size();
      worker.join();
    }
    EXPECT_EQ(budget.held(), 0u) << round;
  }
}

struct Answer {
  unsigned status = 0;
  boost::json::object report;
};

// One upload of `request` through the service with its workers, `piece` bytes a read at most.
Answer serve(const std::string& request, std::size_t piece, unsigned workers) {
  tensorgate::service::ServiceConfig config;
  config.worker_threads = workers;
  std::size_t sent = 0;
  std::string out;
  tensorgate::service::serve_from_source(
      config,
      [&](char* dst, std::size_t capacity) {
        const std::size_t n = std::min({capacity, piece, request.size() - sent});
        std::copy_n(request.data() + sent, n, dst);
        sent += n;
        return n;
      },
      [&out](std::string_view bytes) { out.append(bytes); });
  Answer a;
  if (out.rfind("HTTP/1.1 ", 0) == 0) a.status = static_cast<unsigned>(std::stoul(out.substr(9, 3)));
  const std::size_t body = out.find("\r\n\r\n");
  if (body != std::string::npos && body + 4 < out.size()) a.report = boost::json::parse(out.substr(body + 4)).as_object();
  return a;
}

std::string upload_request(const std::string& file) {
  return head("POST", "/v1/validate", {"Content-Length: " + std::to_string(file.size())}) + file;
}

TEST(ServiceDigest, AnUploadFromASourceIsHashedOnTheWorkersWhole) {
  const std::string file = valid_file(11 * UploadDigest::kBlockBytes + 3);
  for (const unsigned workers : {1u, 2u}) {
    for (const std::size_t piece : {std::size_t{7001}, std::size_t{1} << 20}) {
      const Answer a = serve(upload_request(file), piece, workers);
      ASSERT_EQ(a.status, 200u) << workers << " " << piece;
      EXPECT_EQ(str(a.report.at("sha256")), sha256_hex(file));
      EXPECT_EQ(a.report.at("bytes_received").to_number<std::uint64_t>(), file.size());
      EXPECT_EQ(a.report.at("valid"), true);
    }
  }
}

// The source ends in the middle of the body: the client is gone (499 in the log), nothing is
// answered, and serve_from_source returns although a hash job may still be running.
TEST(ServiceDigest, ASourceEndingInTheBodyEndsTheConnection) {
  const std::string file = valid_file(6 * UploadDigest::kBlockBytes);
  const std::string request = upload_request(file);
  const Answer a = serve(request.substr(0, request.size() - 1000), std::size_t{1} << 20, 2);
  EXPECT_EQ(a.status, 0u);
}

}  // namespace
}  // namespace tgservice
