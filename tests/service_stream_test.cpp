// Large reports are written while they are sent (piece_body.hpp): a chunked answer, or to an
// HTTP/1.0 client one delimited by the connection's close, with the same text; the connection stays usable after it; an
// answer nobody reads is cut at the write timeout and gives back all it held.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "service_support.hpp"
#include "st_builder.hpp"

namespace tgservice {
namespace {

// `n` tensors with long names: a report of about n x 230 bytes.
std::string inventory_file(int n) {
  std::string h = "{";
  for (int i = 0; i < n; ++i)
    h += std::string(i ? "," : "") + "\"model.layers." + std::to_string(i) + "." + std::string(120, 'w') +
         "\":{\"dtype\":\"U8\",\"shape\":[1],\"data_offsets\":[" + std::to_string(i) + "," + std::to_string(i + 1) + "]}";
  return tgtest::st_file(h + "}", std::string(static_cast<std::size_t>(n), '\0'));
}

// The report without the fields that differ between two requests.
boost::json::value comparable(const std::string& body) {
  boost::json::value v = boost::json::parse(body);
  v.as_object().erase("request_id");
  return v;
}

TEST(ServiceStream, ALargeReportIsChunkedAndEqualsTheWholeOne) {
  TestServer s;
  const std::string file = inventory_file(20'000);  // a ~4.6 MB report
  Client c(s.port());
  c.send(head("POST", "/v1/validate?name=big", {"Content-Length: " + std::to_string(file.size())}) + file);
  const HttpResponse streamed = c.read_response("POST", "/v1/validate");
  ASSERT_EQ(streamed.status, 200u);
  EXPECT_EQ(streamed.header("transfer-encoding"), "chunked");
  EXPECT_EQ(streamed.header("content-length"), "");
  EXPECT_EQ(streamed.header("content-type"), "application/json");
  EXPECT_GT(streamed.body.size(), 4'000'000u);
  EXPECT_EQ(streamed.body.back(), '\n');
  const boost::json::value doc = comparable(streamed.body);
  EXPECT_EQ(doc.at("summary").at("tensors").as_array().size(), 20'000u);
  EXPECT_EQ(str(doc.at("sha256")), sha256_hex(file));

  // The connection stays usable: the chunked answer ended where it said.
  c.send(head("GET", "/livez"));
  EXPECT_EQ(c.read_response("GET", "/livez").status, 200u);

  // HTTP/1.0 cannot take a chunked answer: the same report, streamed too, its end the
  // connection's close (even when the client asked to keep it).
  Client old(s.port());
  old.send("POST /v1/validate?name=big HTTP/1.0\r\nHost: t\r\nConnection: keep-alive\r\nContent-Length: " +
           std::to_string(file.size()) + "\r\n\r\n" + file);
  const HttpResponse to_close = old.read_response("POST", "/v1/validate");
  ASSERT_EQ(to_close.status, 200u);
  EXPECT_EQ(to_close.header("transfer-encoding"), "");
  EXPECT_EQ(to_close.header("content-length"), "");
  EXPECT_EQ(to_close.header("connection"), "close");
  EXPECT_EQ(comparable(to_close.body), doc);
  EXPECT_TRUE(old.closed_by_peer());

  // A small report keeps its Content-Length.
  const HttpResponse small = upload(s.port(), valid_file(4096));
  EXPECT_EQ(small.header("content-length"), std::to_string(small.body.size()));
}

// A client that sends a large upload and never reads its answer: the server writes what the
// socket takes, answers others meanwhile, cuts the answer at the write timeout and gives back
// everything the upload held (its table and the pieces).
TEST(ServiceStream, AnAnswerNobodyReadsIsCutAndReleased) {
  ServiceConfig cfg = test_config();
  cfg.write_timeout = std::chrono::milliseconds(1000);
  TestServer s(cfg);
  const std::string file = inventory_file(60'000);  // a ~14 MB report
  Client idle(s.port());
  idle.send(head("POST", "/v1/validate", {"Content-Length: " + std::to_string(file.size())}) + file);
  wait_for_metric(s.port(), "tensorgate_uploads_in_flight", 0);  // answering: its slot is back
  EXPECT_GT(metric(get(s.port(), "/metrics").body, "tensorgate_header_budget_bytes_in_use"), 0.0);
  EXPECT_EQ(upload(s.port(), valid_file(4096)).status, 200u);
  EXPECT_EQ(wait_for_metric(s.port(), "tensorgate_timeouts_total{phase=\"write\"}", 1), 1.0);
  EXPECT_EQ(wait_for_metric(s.port(), "tensorgate_header_budget_bytes_in_use", 0), 0.0);
  EXPECT_TRUE(idle.closed_by_peer());
}

}  // namespace
}  // namespace tgservice
