// The HTTP client over scripted answers: redirects, retries, credentials, statuses, interim
// answers, framing Beast would get wrong (cli/remote/http_client.cpp, stream_connection.cpp).
#include <gtest/gtest.h>

#include "memory_http.hpp"
#include "st_builder.hpp"
#include "tensorgate/report_writers.hpp"

namespace {

using tgtest::answer;
using tgtest::check_in_memory;
using tgtest::partial;
namespace remote = tensorgate::remote;

const std::string kFile = tgtest::st_file(R"({"t":{"dtype":"U8","shape":[16],"data_offsets":[0,16]}})", tgtest::zeros(16));

std::string error_of(const tgtest::MemoryRun& run) {
  EXPECT_FALSE(run.file.report.has_value());
  return run.file.error.value_or("");
}

bool valid(const tgtest::MemoryRun& run) {
  EXPECT_TRUE(run.file.report.has_value()) << run.file.error.value_or("");
  return run.file.report && run.file.report->valid;
}

remote::RemoteOptions with_token(std::string token) {
  remote::RemoteOptions o = tgtest::quick_options();
  o.headers.emplace_back("Authorization", "Bearer " + token);
  return o;
}

TEST(RemoteHttp, ARelativeRedirectIsFollowedOnTheSameConnection) {
  const auto run = check_in_memory({answer("302 Found", "moved", "Location: /elsewhere/model.safetensors\r\n") +
                                    partial(kFile, 0, 65535)});
  EXPECT_TRUE(valid(run));
  ASSERT_EQ(run.requests.size(), 1u);
  EXPECT_NE(run.requests[0].find("GET /elsewhere/model.safetensors HTTP/1.1\r\n"), std::string::npos);
}

TEST(RemoteHttp, RedirectsAreBoundedAndNeverGoFromHttpsToHttp) {
  std::string loop;
  for (int i = 0; i < 11; ++i) loop += answer("302 Found", "", "Location: /r" + std::to_string(i) + "\r\n");
  EXPECT_EQ(error_of(check_in_memory({loop})), "more than 10 redirects (the last to http://example.test)");
  EXPECT_EQ(error_of(check_in_memory({answer("301 Moved Permanently", "", "Location: http://example.test/model.safetensors\r\n")},
                                     "https://example.test/model.safetensors")),
            "refused a redirect from https to http (http://example.test)");
  EXPECT_EQ(error_of(check_in_memory({answer("307 Temporary Redirect")})), "HTTP 307 Temporary Redirect without a Location");
}

TEST(RemoteHttp, CredentialsGoToTheGivenOriginOnlyAndAreNeverInAnError) {
  const auto run = check_in_memory({answer("302 Found", "", "Location: https://cdn.example.test/signed?sig=1\r\n"),
                                    answer("403 Forbidden")},
                                   "https://hub.example.test/model.safetensors", with_token("s3cret-token"));
  EXPECT_EQ(error_of(run), "HTTP 403 Forbidden from https://cdn.example.test (after 1 redirect): access is forbidden");
  ASSERT_EQ(run.requests.size(), 2u);
  EXPECT_NE(run.requests[0].find("Authorization: Bearer s3cret-token\r\n"), std::string::npos);
  EXPECT_EQ(run.requests[1].find("Authorization"), std::string::npos);
  EXPECT_NE(run.requests[1].find("GET /signed?sig=1 HTTP/1.1\r\nHost: cdn.example.test\r\n"), std::string::npos);

  const auto refused = check_in_memory({answer("401 Unauthorized", "no")}, "http://example.test/model.safetensors",
                                       with_token("s3cret-token"));
  EXPECT_EQ(error_of(refused), "HTTP 401 Unauthorized: the credentials given were not accepted");
  EXPECT_EQ(error_of(refused).find("s3cret"), std::string::npos);
  EXPECT_EQ(error_of(check_in_memory({answer("401 Unauthorized")})),
            "HTTP 401 Unauthorized: credentials are needed (--header 'Authorization: ...' or TENSORGATE_TOKEN)");
}

TEST(RemoteHttp, NotFoundIsAnErrorThatSaysSo) {
  const auto run = check_in_memory({answer("404 Not Found", "<html>nothing</html>")});
  EXPECT_EQ(error_of(run), "HTTP 404 Not Found: no such file");
  EXPECT_TRUE(run.not_found);
  EXPECT_FALSE(check_in_memory({answer("403 Forbidden")}).not_found);
}

TEST(RemoteHttp, TooManyRequestsAndUnavailableAreRetried) {
  const auto run = check_in_memory({answer("429 Too Many Requests", "slow down", "Retry-After: 0\r\n") +
                                    answer("503 Service Unavailable") + partial(kFile, 0, 65535)});
  EXPECT_TRUE(valid(run));
  remote::RemoteOptions two = tgtest::quick_options();
  two.retries = 2;
  std::string unavailable;
  for (int i = 0; i < 3; ++i) unavailable += answer("503 Service Unavailable");
  EXPECT_EQ(error_of(check_in_memory({unavailable}, "http://example.test/model.safetensors", two)),
            "HTTP 503 Service Unavailable after 2 retries");
  EXPECT_EQ(error_of(check_in_memory({answer("429 Too Many Requests", "", "Retry-After: 3600\r\n")})),
            "HTTP 429 Too Many Requests: the server asks to retry after 3600 s, longer than 60 s");
  EXPECT_EQ(error_of(check_in_memory({answer("501 Not Implemented")})), "HTTP 501 Not Implemented");
}

TEST(RemoteHttp, AClosedKeptConnectionIsRetriedOnceOnANewOne) {
  // A redirect on a connection the server then closes: the next request fails before any byte
  // of an answer, and goes again on a second connection.
  const auto run = check_in_memory({answer("302 Found", "", "Location: /b\r\n"), partial(kFile, 0, 65535)});
  EXPECT_TRUE(valid(run));
  EXPECT_EQ(run.requests.size(), 2u);
  EXPECT_EQ(error_of(check_in_memory({answer("302 Found", "", "Location: /b\r\n")})),
            "cannot connect to example.test: no more connections in memory");
}

TEST(RemoteHttp, InterimAnswersAreSkippedUpToABound) {
  EXPECT_TRUE(valid(check_in_memory({"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\n" +
                                     partial(kFile, 0, 65535)})));
  std::string many;
  for (int i = 0; i < 8; ++i) many += "HTTP/1.1 100 Continue\r\n\r\n";
  EXPECT_EQ(error_of(check_in_memory({many + partial(kFile, 0, 65535)})),
            "more than 8 interim (1xx) responses (http://example.test)");
  EXPECT_EQ(error_of(check_in_memory({"HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\n\r\n"})),
            "the server switched protocols (HTTP 101) (http://example.test)");
}

TEST(RemoteHttp, FramingBeastGetsWrongIsRefused) {
  const std::string range = "Content-Range: bytes 0-" + std::to_string(kFile.size() - 1) + "/" + std::to_string(kFile.size()) + "\r\n";
  EXPECT_EQ(error_of(check_in_memory({"HTTP/1.1 206 Partial Content\r\n" + range + "Transfer-Encoding: gzip, chunked\r\n\r\n"})),
            "the server's Transfer-Encoding is not just chunked (http://example.test)");
  EXPECT_EQ(error_of(check_in_memory({"HTTP/1.0 206 Partial Content\r\n" + range + "Transfer-Encoding: chunked\r\n\r\n"})),
            "a chunked body in an HTTP/1.0 response (http://example.test)");
  EXPECT_EQ(error_of(check_in_memory({"HTTP/1.1 206 Partial Content\r\n" + range +
                                      "Transfer-Encoding: chunked\r\nContent-Length: 10\r\n\r\n"})),
            "malformed response: bad Content-Length (http://example.test)");
}

TEST(RemoteHttp, MalformedAnswersAreErrors) {
  EXPECT_EQ(error_of(check_in_memory({"SSH-2.0-OpenSSH_9.2\r\n"})).rfind("malformed response: ", 0), 0u);
  EXPECT_EQ(error_of(check_in_memory({""})), "the server closed the connection without an answer (http://example.test)");
  remote::RemoteOptions small = tgtest::quick_options();
  small.max_header_bytes = 1024;
  EXPECT_EQ(error_of(check_in_memory({"HTTP/1.1 200 OK\r\nX: " + std::string(2000, 'a') + "\r\n\r\n"},
                                     "http://example.test/model.safetensors", small)),
            "the response head is larger than 1024 bytes (http://example.test)");
}

}  // namespace
