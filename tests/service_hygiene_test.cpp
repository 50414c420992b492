// Request hygiene Beast 1.81 does not do itself: framing (smuggling attempts), lengths,
// expectations, header size, versions. Every answer is problem+json with a stable code, and a
// request whose framing is in doubt closes the connection so nothing after it is read as a
// request.
#include <gtest/gtest.h>

#include "service_support.hpp"

namespace tgservice {
namespace {

// Sends raw bytes, expects one answer with `status` and `code`, then the connection closed.
void expect_refused(std::uint16_t port, const std::string& raw, unsigned status,
                    const std::string& code, bool closes = true) {
  Client c(port);
  c.send(raw);
  const HttpResponse r = c.read_response("POST", "/v1/validate");
  EXPECT_EQ(r.status, status) << raw;
  EXPECT_EQ(r.code(), code) << raw;
  EXPECT_EQ(r.header("content-type"), "application/problem+json");
  if (closes) {
    EXPECT_EQ(r.header("connection"), "close") << raw;
    EXPECT_TRUE(c.closed_by_peer()) << raw;
  }
}

const std::string kBody = "5\r\nhello\r\n0\r\n\r\n";
// A second request smuggled after the first one's body: it must never be answered.
const std::string kSmuggled = "GET /livez HTTP/1.1\r\nHost: x\r\n\r\n";

TEST(ServiceHygiene, GarbageIs400AndClose) {
  TestServer s;
  expect_refused(s.port(), "HELLO\r\n\r\n", 400, "bad-request");
  expect_refused(s.port(), "GET / HTTP/1.1\r\nBad Header\r\n\r\n", 400, "bad-request");
}

TEST(ServiceHygiene, TransferEncodingWithContentLengthIs400BadFraming) {
  TestServer s;
  const std::string p = "POST /v1/validate HTTP/1.1\r\nHost: x\r\n";
  expect_refused(s.port(), p + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n" + kBody + kSmuggled, 400, "bad-framing");
  expect_refused(s.port(), p + "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n" + kBody + kSmuggled, 400, "bad-framing");
  // Beast frames by Content-Length when the coding is not chunked: the classic smuggling shape.
  expect_refused(s.port(), p + "Transfer-Encoding: gzip\r\nContent-Length: 5\r\n\r\n" + kBody + kSmuggled, 400, "bad-framing");
}

TEST(ServiceHygiene, ConflictingContentLengthsAre400BadFraming) {
  TestServer s;
  const std::string p = "POST /v1/validate HTTP/1.1\r\nHost: x\r\n";
  expect_refused(s.port(), p + "Content-Length: 5\r\nContent-Length: 6\r\n\r\nhello!", 400, "bad-framing");
  expect_refused(s.port(), p + "Content-Length: 5x\r\n\r\nhello", 400, "bad-framing");
  expect_refused(s.port(), p + "Content-Length: -1\r\n\r\n", 400, "bad-framing");
}

TEST(ServiceHygiene, TransferCodingsOtherThanChunkedAre501) {
  TestServer s;
  const std::string p = "POST /v1/validate HTTP/1.1\r\nHost: x\r\n";
  for (const std::string te : {"gzip", "gzip, chunked", "chunked, gzip", "identity", "chunked, chunked", "xchunked"})
    expect_refused(s.port(), p + "Transfer-Encoding: " + te + "\r\n\r\n" + kBody + kSmuggled, 501, "unsupported-transfer-coding");
  expect_refused(s.port(), p + "Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n" + kBody + kSmuggled, 501, "unsupported-transfer-coding");
}

TEST(ServiceHygiene, ChunkedIsCaseInsensitive) {
  TestServer s;
  Client c(s.port());
  const std::string file = valid_file(256);
  c.send("POST /v1/validate HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: Chunked\r\n\r\n" + chunked(file, {}));
  EXPECT_EQ(c.read_response("POST", "/v1/validate").status, 200u);
}

TEST(ServiceHygiene, ChunkedInHttp10Is400BadFraming) {
  TestServer s;
  expect_refused(s.port(), "POST /v1/validate HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n" + kBody + kSmuggled, 400, "bad-framing");
}

TEST(ServiceHygiene, NoLengthIs411) {
  TestServer s;
  Client c(s.port());
  c.send("POST /v1/validate HTTP/1.1\r\nHost: x\r\n\r\n");
  const HttpResponse r = c.read_response("POST", "/v1/validate");
  EXPECT_EQ(r.status, 411u);
  EXPECT_EQ(r.code(), "length-required");
  // What the client sends next is an unframed body, not a request: the connection closes.
  EXPECT_EQ(r.header("connection"), "close");
  EXPECT_TRUE(c.closed_by_peer());
}

TEST(ServiceHygiene, UnsupportedExpectationIs417) {
  TestServer s;
  expect_refused(s.port(), head("POST", "/v1/validate", {"Content-Length: 5", "Expect: 200-ok"}) + "hello", 417, "expectation-failed");
}

TEST(ServiceHygiene, OversizedHeaderIs431) {
  ServiceConfig cfg = test_config();
  cfg.max_request_header_bytes = 4096;
  TestServer s(cfg);
  expect_refused(s.port(), head("GET", "/livez", {"X-Big: " + std::string(5000, 'a')}), 431, "header-fields-too-large");
  expect_refused(s.port(), "GET /" + std::string(5000, 'a') + " HTTP/1.1\r\nHost: x\r\n\r\n", 431, "header-fields-too-large");
}

TEST(ServiceHygiene, Http11WithoutHostIs400) {
  TestServer s;
  expect_refused(s.port(), "GET /livez HTTP/1.1\r\n\r\n", 400, "missing-host", false);
  expect_refused(s.port(), "GET /livez HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400, "missing-host", false);
}

TEST(ServiceHygiene, Http10WithoutHostIsFine) {
  TestServer s;
  Client c(s.port());
  c.send("GET /livez HTTP/1.0\r\n\r\n");
  EXPECT_EQ(c.read_response("GET", "/livez").status, 200u);
  EXPECT_TRUE(c.closed_by_peer());  // HTTP/1.0 without keep-alive
}

TEST(ServiceHygiene, AbsoluteFormTargetIs400) {
  TestServer s;
  expect_refused(s.port(), "GET http://x/livez HTTP/1.1\r\nHost: x\r\n\r\n", 400, "bad-target", false);
}

TEST(ServiceHygiene, ChunkExtensionBeyondTheReadBufferIs400) {
  ServiceConfig cfg = test_config();
  cfg.read_buffer_bytes = 16384;
  TestServer s(cfg);
  Client c(s.port());
  c.send("POST /v1/validate HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5;" +
         std::string(40000, 'e'));
  const HttpResponse r = c.read_response("POST", "/v1/validate");
  EXPECT_EQ(r.status, 400u);
  EXPECT_EQ(r.code(), "bad-request");
  EXPECT_TRUE(c.closed_by_peer());
}

TEST(ServiceHygiene, MalformedChunkSizeIs400AndNothingAfterItIsRead) {
  TestServer s;
  const std::string file = valid_file(256);
  expect_refused(s.port(), "POST /v1/validate HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n" + file + "\r\n0\r\n\r\n" + kSmuggled, 400, "bad-request");
}

TEST(ServiceHygiene, GetWithABodyIsAnsweredThenClosed) {
  TestServer s;
  Client c(s.port());
  c.send(head("GET", "/livez", {"Content-Length: 33"}) + kSmuggled);
  const HttpResponse r = c.read_response("GET", "/livez");
  EXPECT_EQ(r.status, 200u);
  EXPECT_EQ(r.header("connection"), "close");
  EXPECT_TRUE(c.closed_by_peer());
}

TEST(ServiceHygiene, UnsupportedVersionIs505) {
  TestServer s;
  expect_refused(s.port(), "GET /livez HTTP/2.0\r\nHost: x\r\n\r\n", 505, "http-version-not-supported", false);
}

}  // namespace
}  // namespace tgservice
