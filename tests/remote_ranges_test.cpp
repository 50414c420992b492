// The remote file over scripted answers: range windows, the size from Content-Range, a server
// that ignores Range, and every way an answer's range can be wrong (cli/remote/remote_file.cpp).
#include <gtest/gtest.h>

#include "memory_http.hpp"
#include "st_builder.hpp"
#include "tensorgate/report_writers.hpp"

namespace {

using tgtest::answer;
using tgtest::check_in_memory;
using tgtest::partial;

// A valid file: one U8 tensor of `data` bytes.
std::string valid_file(std::size_t data) {
  return tgtest::st_file(R"({"t":{"dtype":"U8","shape":[)" + std::to_string(data) + R"(],"data_offsets":[0,)" +
                             std::to_string(data) + "]}}",
                         tgtest::zeros(data));
}

// A valid file whose header is `header_bytes` long or more (many tensors): two windows, the
// second clipped to the file's size.
std::string file_with_header(std::size_t header_bytes) {
  std::string header = "{";
  std::size_t offset = 0;
  for (int i = 0; header.size() < header_bytes; ++i) {
    if (i) header += ",";
    header += "\"tensor." + std::to_string(i) + "\":{\"dtype\":\"U8\",\"shape\":[2],\"data_offsets\":[" +
              std::to_string(offset) + "," + std::to_string(offset + 2) + "]}";
    offset += 2;
  }
  return tgtest::st_file(header + "}", tgtest::zeros(offset));
}

std::string json(const tensorgate::CheckedFile& f) {
  EXPECT_TRUE(f.report.has_value()) << f.error.value_or("");
  return f.report ? tensorgate::report_json(*f.report) : "";
}

std::string error_of(const tgtest::MemoryRun& run) {
  EXPECT_FALSE(run.file.report.has_value());
  return run.file.error.value_or("");
}

TEST(RemoteRanges, OneWindowGivesTheLocalReportAndSkipsTheData) {
  const std::string file = valid_file(1 << 20);  // 1 MiB of data, never fetched
  const auto run = check_in_memory({partial(file, 0, 65535)});
  EXPECT_EQ(json(run.file), tensorgate::report_json(tgtest::local_report(file)));
  ASSERT_EQ(run.requests.size(), 1u);
  EXPECT_NE(run.requests[0].find("Range: bytes=0-65535\r\n"), std::string::npos);
  EXPECT_NE(run.requests[0].find("Accept-Encoding: identity\r\n"), std::string::npos);
  EXPECT_LT(*run.file.bytes_transferred, 65536u + 512u);
  EXPECT_GT(*run.file.bytes_transferred, 65536u);
}

TEST(RemoteRanges, ALargeHeaderTakesAGrowingSecondWindowWithIfMatch) {
  const std::string file = file_with_header(100'000);
  const std::uint64_t second_last = std::min<std::uint64_t>(file.size() - 1, 65536 + 131072 - 1);
  const auto run = check_in_memory({partial(file, 0, 65535, "ETag: \"v1\"\r\n") +
                                    partial(file, 65536, second_last, "ETag: \"v1\"\r\n")});
  EXPECT_EQ(json(run.file), tensorgate::report_json(tgtest::local_report(file)));
  ASSERT_EQ(run.requests.size(), 1u);  // one kept-alive connection
  EXPECT_NE(run.requests[0].find("Range: bytes=65536-" + std::to_string(second_last) + "\r\n"), std::string::npos);
  EXPECT_NE(run.requests[0].find("If-Match: \"v1\"\r\n"), std::string::npos);
  EXPECT_NE(run.requests[0].find("If-Range: \"v1\"\r\n"), std::string::npos);
}

TEST(RemoteRanges, AFileSmallerThanTheWindowComesInOneAnswer) {
  const std::string file = tgtest::st_file(R"({"a":{"dtype":"U8","shape":[1],"data_offsets":[0,2]}})", "xx");
  const auto run = check_in_memory({partial(file, 0, 65535)});
  EXPECT_EQ(json(run.file), tensorgate::report_json(tgtest::local_report(file)));
  EXPECT_FALSE(run.file.report->valid);
}

TEST(RemoteRanges, AnEmptyFileIs416WithItsSize) {
  const auto run = check_in_memory({answer("416 Range Not Satisfiable", "", "Content-Range: bytes */0\r\n")});
  EXPECT_EQ(json(run.file), tensorgate::report_json(tgtest::local_report("")));
}

TEST(RemoteRanges, AServerIgnoringRangeIsReadAsAStreamAndStoppedOnceTheVerdictIsFinal) {
  const std::string file = valid_file(4 << 20);
  const auto run = check_in_memory({answer("200 OK", file)});
  EXPECT_EQ(json(run.file), tensorgate::report_json(tgtest::local_report(file)));
  EXPECT_LT(*run.file.bytes_transferred, 2u << 20);  // stopped after the header, not 4 MiB later
}

TEST(RemoteRanges, AStreamWithoutALengthStopsAtTheFirstFinalVerdict) {
  std::string file = tgtest::st_file(R"({"a":{"dtype":"U8","shape":[4],"data_offsets":[0,3]}})", tgtest::zeros(1 << 20));
  const auto run = check_in_memory({"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" + file});
  ASSERT_TRUE(run.file.report);
  EXPECT_FALSE(run.file.report->valid);
  EXPECT_EQ(tgtest::error_ids(*run.file.report).substr(0, 3), tgtest::error_ids(tgtest::local_report(file)).substr(0, 3));
  EXPECT_LT(*run.file.bytes_transferred, 1u << 20);
}

TEST(RemoteRanges, AChunkedRangeIsDecoded) {
  const std::string file = valid_file(1000);
  const std::string body = file.substr(0, 500), rest = file.substr(500);
  auto hex = [](std::size_t n) {
    char b[32];
    std::snprintf(b, sizeof b, "%zx", n);
    return std::string(b);
  };
  const std::string chunked = "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 0-" + std::to_string(file.size() - 1) +
                              "/" + std::to_string(file.size()) + "\r\nTransfer-Encoding: chunked\r\n\r\n" +
                              hex(body.size()) + ";ext=1\r\n" + body + "\r\n" + hex(rest.size()) + "\r\n" + rest +
                              "\r\n0\r\nTrailer-Field: x\r\n\r\n";
  EXPECT_EQ(json(check_in_memory({chunked}).file), tensorgate::report_json(tgtest::local_report(file)));
  EXPECT_EQ(json(check_in_memory({chunked}, "http://example.test/model.safetensors", tgtest::quick_options(), 7).file),
            tensorgate::report_json(tgtest::local_report(file)));
}

TEST(RemoteRanges, AChunkedRangeLongerThanItsContentRangeIsRefused) {
  const std::string file = valid_file(100);
  const std::string chunked = "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 0-" + std::to_string(file.size() - 1) +
                              "/" + std::to_string(file.size()) + "\r\nTransfer-Encoding: chunked\r\n\r\n" + "1000\r\n" +
                              file + std::string(0x1000 - file.size(), 'x') + "\r\n0\r\n\r\n";
  EXPECT_EQ(error_of(check_in_memory({chunked})), "the server sent more bytes than its Content-Range says");
}

TEST(RemoteRanges, WrongContentRangesAreRefused) {
  const std::string file = valid_file(100'000);
  const std::string size = std::to_string(file.size());
  EXPECT_EQ(error_of(check_in_memory({answer("206 Partial Content", file.substr(1, 65536),
                                             "Content-Range: bytes 1-65536/" + size + "\r\n")})),
            "the server sent the wrong range: bytes 1-65536 for bytes 0-65535");
  EXPECT_EQ(error_of(check_in_memory({answer("206 Partial Content", file.substr(0, 100))})),
            "a 206 answer without a valid Content-Range (asked for bytes 0-65535)");
  EXPECT_EQ(error_of(check_in_memory({answer("206 Partial Content", file.substr(0, 65536), "Content-Range: bytes 0-65535/*\r\n")})),
            "the server does not say the file's size (Content-Range total *)");
  EXPECT_EQ(error_of(check_in_memory({answer("206 Partial Content", file.substr(0, 100),
                                             "Content-Range: bytes 0-65535/" + size + "\r\n")})),
            "a Content-Length of 100 for a Content-Range of 65536 bytes");
  EXPECT_EQ(error_of(check_in_memory({answer("206 Partial Content", file.substr(0, 65536),
                                             "Content-Range: bytes 0-65535/" + size + "\r\nContent-Range: bytes 0-65535/" + size + "\r\n")})),
            "the server sent Content-Range twice (http://example.test)");
}

TEST(RemoteRanges, AFileThatChangesBetweenRequestsIsRefused) {
  const std::string file = file_with_header(100'000);
  const std::uint64_t last = std::min<std::uint64_t>(file.size() - 1, 65536 + 131072 - 1);
  const std::string first = partial(file, 0, 65535, "ETag: \"v1\"\r\n");
  EXPECT_EQ(error_of(check_in_memory({first + partial(file, 65536, last, "ETag: \"v2\"\r\n")})),
            "the file changed between requests (its ETag is not the first one's)");
  EXPECT_EQ(error_of(check_in_memory({first + answer("412 Precondition Failed", "", "ETag: \"v2\"\r\n")})),
            "the file changed between requests (If-Match failed: HTTP 412)");
  EXPECT_EQ(error_of(check_in_memory({first + answer("200 OK", file, "ETag: \"v1\"\r\n")})),
            "the server stopped honouring Range (a 200 answer to a later range request)");
  const std::string grown = file + "x";
  EXPECT_EQ(error_of(check_in_memory({first + partial(grown, 65536, last, "ETag: \"v1\"\r\n")})),
            "the file changed between requests (its size went from " + std::to_string(file.size()) + " to " +
                std::to_string(grown.size()) + " bytes)");
  const std::string dated = partial(file, 0, 65535, "Last-Modified: Sun, 06 Nov 1994 08:49:37 GMT\r\n");
  const auto run = check_in_memory({dated + partial(file, 65536, last, "Last-Modified: Mon, 07 Nov 1994 08:49:37 GMT\r\n")});
  EXPECT_EQ(error_of(run), "the file changed between requests (its Last-Modified is not the first one's)");
  EXPECT_NE(run.requests[0].find("If-Unmodified-Since: Sun, 06 Nov 1994 08:49:37 GMT\r\n"), std::string::npos);
}

TEST(RemoteRanges, AnAnswerCutShortIsAnErrorNotATruncatedFile) {
  const std::string file = file_with_header(100'000);
  const std::string whole = partial(file, 0, 65535);
  EXPECT_EQ(error_of(check_in_memory({whole.substr(0, 30'000)})), "the connection closed before the body ended");
}

TEST(RemoteRanges, AnEncodedBodyIsRefused) {
  const std::string file = valid_file(100);
  EXPECT_EQ(error_of(check_in_memory({partial(file, 0, 65535, "Content-Encoding: gzip\r\n")})),
            "the server sent an encoded body (Content-Encoding: gzip): its ranges are not the file's bytes");
}

}  // namespace
