// POST|PUT /v1/validate over a real socket: verdicts, reports, digests, chunked bodies split at
// awkward places, early 413 and early 422 with the bytes the server actually read, and the
// service's own limits.
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <sstream>
#include <thread>

#include <boost/json.hpp>

#include "service_support.hpp"
#include "gguf_builder.hpp"
#include "pickle_builder.hpp"
#include "st_builder.hpp"
#include "tensorgate/gguf.hpp"
#include "tensorgate/report_writers.hpp"
#include "wire_builder.hpp"
#include "zip_builder.hpp"

namespace tgservice {
namespace {

boost::json::object obj(const HttpResponse& r) { return r.json().as_object(); }
std::uint64_t u64(const boost::json::value& v) { return v.to_number<std::uint64_t>(); }

TEST(ServiceValidate, ValidFileIs200WithReportAndDigest) {
  TestServer s;
  const std::string file = valid_file(100'000);
  const HttpResponse r = upload(s.port(), file, "name=model.safetensors");
  ASSERT_EQ(r.status, 200u) << r.body;
  const boost::json::object o = r.json().as_object();
  EXPECT_EQ(o.at("valid"), true);
  EXPECT_EQ(o.at("format"), "safetensors");
  EXPECT_EQ(o.at("name"), "model.safetensors");
  EXPECT_EQ(o.at("schema"), "tensorgate.validation/1");
  EXPECT_EQ(u64(o.at("bytes_received")), file.size());
  EXPECT_EQ(o.at("complete"), true);
  EXPECT_EQ(str(o.at("sha256")), sha256_hex(file));
  EXPECT_EQ(str(o.at("request_id")), r.header("x-request-id"));
  EXPECT_EQ(u64(o.at("summary").as_object().at("tensor_count")), 1u);
  EXPECT_TRUE(o.at("summary").as_object().contains("tensors"));
}

TEST(ServiceValidate, GgufIsDetectedOrChosen) {
  TestServer s;
  const std::string file = tgtest::gguf_minimal(2);
  HttpResponse r = upload(s.port(), file);
  ASSERT_EQ(r.status, 200u) << r.body;
  EXPECT_EQ(obj(r).at("format"), "gguf");
  r = upload(s.port(), valid_file(256), "format=gguf");  // a safetensors file is not GGUF
  EXPECT_EQ(r.status, 422u);
  EXPECT_EQ(obj(r).at("format"), "gguf");
}

// A GGUF file's chat templates (CT) are judged as the upload streams by: an error is 422 with
// the finding at its file offset, a warning leaves it 200; the same findings however the body
// is cut into chunks.
TEST(ServiceValidate, GgufChatTemplatesAreJudged) {
  TestServer s;
  const auto gguf_with = [](std::string_view key, std::string_view tmpl) {
    tgtest::GgufBuilder b;
    b.kv_str("general.architecture", "llama").kv_str(key, tmpl).tensor("w", 0, {8});
    return b.build();
  };
  const std::string hostile = gguf_with("tokenizer.chat_template.tool_use", "{{ x|attr('\\x5f\\x5fclass\\x5f\\x5f') }}");
  for (const std::vector<std::size_t>& sizes : std::vector<std::vector<std::size_t>>{{}, {60, 1, 1, 1}, {7, 7, 7, 7, 7, 7, 7, 7, 7}}) {
    Client c(s.port());
    c.send(head("POST", "/v1/validate", {"Transfer-Encoding: chunked"}) + chunked(hostile, sizes));
    const HttpResponse r = c.read_response("POST", "/v1/validate");
    ASSERT_EQ(r.status, 422u) << r.body;
    const boost::json::array findings = obj(r).at("findings").as_array();
    std::string rules;
    for (const auto& f : findings) rules += str(f.at("rule")) + " ";
    EXPECT_EQ(rules, "CT.python-internals ");
    const std::uint64_t at = u64(findings.at(0).at("offset"));
    EXPECT_EQ(hostile.substr(at, 1), "'") << "the string literal's place in the file";
    EXPECT_EQ(findings, boost::json::parse(tensorgate::report_json(tensorgate::validate_gguf(hostile))).at("findings"));
  }
  const HttpResponse warned = upload(s.port(), gguf_with("tokenizer.chat_template", "{{ m[key ~ 1] }}"));
  ASSERT_EQ(warned.status, 200u) << warned.body;
  EXPECT_EQ(str(obj(warned).at("findings").as_array().at(0).at("rule")), "CT.computed-subscript");
  EXPECT_EQ(upload(s.port(), gguf_with("tokenizer.chat_template", "{{ messages[0]['content'] }}")).status, 200u);
}

// format=auto lets the content decide: pickles, PyTorch archives, LFS pointers, HTML.
TEST(ServiceValidate, EveryKindByItsContent) {
  TestServer s;
  HttpResponse r = upload(s.port(), tgtest::torch_archive({{"w", "FloatStorage", {2, 3}}}), "name=pytorch_model.bin");
  ASSERT_EQ(r.status, 200u) << r.body;
  EXPECT_EQ(obj(r).at("format"), "zip");
  r = upload(s.port(), tgtest::legacy_torch_stream({{"w", "FloatStorage", {4}}}), "name=model.pt");
  ASSERT_EQ(r.status, 200u) << r.body;
  EXPECT_EQ(obj(r).at("format"), "pickle");
  r = upload(s.port(), tgtest::PickleBuilder().proto(4).call("builtins", "exec", "print(1)", true).stop().bytes(),
             "name=model.safetensors");
  ASSERT_EQ(r.status, 422u) << r.body;
  EXPECT_EQ(obj(r).at("format"), "pickle");
  bool dangerous = false, extension = false;
  const boost::json::object report = obj(r);
  for (const auto& f : report.at("findings").as_array()) {
    dangerous = dangerous || f.at("rule") == "PK.dangerous-global";
    extension = extension || f.at("rule") == "FK.extension";
  }
  EXPECT_TRUE(dangerous);
  EXPECT_TRUE(extension);
  r = upload(s.port(), "version https://git-lfs.github.com/spec/v1\noid sha256:" + std::string(64, 'a') + "\nsize 9\n");
  ASSERT_EQ(r.status, 422u);
  EXPECT_EQ(obj(r).at("format"), "lfs-pointer");
  EXPECT_EQ(obj(r).at("findings").as_array().at(0).at("rule"), "FK.lfs-pointer");
  r = upload(s.port(), "<!DOCTYPE html><html><body>Sign in</body></html>");
  ASSERT_EQ(r.status, 422u);
  EXPECT_EQ(obj(r).at("findings").as_array().at(0).at("rule"), "FK.unknown");
}

// A dangerous global is a verdict at once: the answer comes while the client still holds the
// rest of the pickle (here a 1 MB BINBYTES after it).
TEST(ServiceValidate, Early422ForADangerousGlobal) {
  TestServer s;
  const std::string file = tgtest::PickleBuilder().proto(2).global("os", "system").bytes() + "\x42" +
                           std::string("\x40\x42\x0f\x00", 4) + std::string(1'000'000, 'x');
  const std::size_t sent = 6000;
  Client c(s.port());
  c.send(head("POST", "/v1/validate", {"Content-Length: " + std::to_string(file.size())}) + file.substr(0, sent));
  const HttpResponse r = c.read_response("POST", "/v1/validate");
  ASSERT_EQ(r.status, 422u) << r.body;
  EXPECT_EQ(obj(r).at("format"), "pickle");
  EXPECT_EQ(obj(r).at("complete"), false);
  EXPECT_LE(u64(obj(r).at("bytes_received")), sent);  // what the server had read when it knew
  EXPECT_EQ(obj(r).at("findings").as_array().at(0).at("rule"), "PK.dangerous-global");
}

// Inside a compressed joblib file the same: the upload is inflated as it streams, and the
// dangerous global in its first 4 KiB is a verdict before the rest of the body (here the
// inflated 1 MiB of zeros after it) has come.
TEST(ServiceValidate, Early422ForADangerousGlobalInsideACompressedJoblibFile) {
  std::ifstream in(std::string(TG_SOURCE_DIR) + "/tests/data/joblib/hostile_first.zlib.joblib", std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string file = ss.str();
  ASSERT_GT(file.size(), 4500u);
  TestServer s;
  const std::size_t sent = 4500;
  Client c(s.port());
  c.send(head("POST", "/v1/validate?name=model.joblib", {"Content-Length: " + std::to_string(file.size())}) + file.substr(0, sent));
  const HttpResponse r = c.read_response("POST", "/v1/validate");
  ASSERT_EQ(r.status, 422u) << r.body;
  EXPECT_EQ(obj(r).at("format"), "pickle");
  EXPECT_EQ(obj(r).at("complete"), false);
  EXPECT_EQ(obj(r).at("findings").as_array().at(0).at("rule"), "PK.dangerous-global");
  EXPECT_EQ(obj(r).at("summary").as_object().at("compression"), "zlib");
}

// A SavedModel's node that reads files is a verdict when the node ends, whatever follows (here a
// 1 MB node input after it).
TEST(ServiceValidate, Early422ForADangerousTensorFlowOp) {
  using namespace tgtest::wire;
  TestServer s;
  const std::string nodes = field_len(1, field_len(1, "leak") + field_len(2, "ReadFile")) +
                            field_len(1, field_len(1, "next") + field_len(2, "Identity") + field_len(3, std::string(1'000'000, 'x')));
  const std::string file = field_varint(1, 1) + field_len(2, field_len(1, field_len(4, "serve")) + field_len(2, nodes));
  const std::size_t sent = 6000;
  Client c(s.port());
  c.send(head("POST", "/v1/validate", {"Content-Length: " + std::to_string(file.size())}) + file.substr(0, sent));
  const HttpResponse r = c.read_response("POST", "/v1/validate");
  ASSERT_EQ(r.status, 422u) << r.body;
  EXPECT_EQ(obj(r).at("format"), "savedmodel");
  EXPECT_EQ(obj(r).at("complete"), false);
  EXPECT_EQ(obj(r).at("findings").as_array().at(0).at("rule"), "TF.dangerous-op");
}

// A .keras archive's Lambda is a verdict when config.json ends, before the weights that follow
// it (here 1 MB) are sent.
TEST(ServiceValidate, Early422ForAKerasLambda) {
  TestServer s;
  const std::string config =
      R"({"module": "keras", "class_name": "Sequential", "config": {"layers": [{"module": "keras.layers", )"
      R"("class_name": "Lambda", "config": {"name": "l", "function": {"class_name": "__lambda__", )"
      R"("config": {"code": "4wEAAAAAAAAA"}}}}]}})";
  const std::string file = tgtest::build_zip({{.name = "metadata.json", .data = R"({"keras_version": "3.3.3"})"},
                                              {.name = "config.json", .data = config},
                                              {.name = "model.weights.h5", .data = std::string(1'000'000, 'w')}});
  const std::size_t sent = 6000;
  Client c(s.port());
  c.send(head("POST", "/v1/validate", {"Content-Length: " + std::to_string(file.size())}) + file.substr(0, sent));
  const HttpResponse r = c.read_response("POST", "/v1/validate");
  ASSERT_EQ(r.status, 422u) << r.body;
  EXPECT_EQ(obj(r).at("format"), "zip");
  EXPECT_EQ(obj(r).at("complete"), false);
  EXPECT_EQ(obj(r).at("findings").as_array().at(0).at("rule"), "KR.lambda");
}

TEST(ServiceValidate, PutWorksLikePost) {
  TestServer s;
  EXPECT_EQ(request(s.port(), "PUT", "/v1/validate", valid_file(256)).status, 200u);
}

TEST(ServiceValidate, InvalidFileIs422WithItsRule) {
  TestServer s;
  const std::string file = invalid_header_file(64);
  const HttpResponse r = upload(s.port(), file);
  ASSERT_EQ(r.status, 422u);
  const boost::json::object o = r.json().as_object();
  EXPECT_EQ(o.at("valid"), false);
  EXPECT_EQ(o.at("findings").as_array().at(0).as_object().at("rule"), "ST4.dtype");
}

TEST(ServiceValidate, TruncatedDataIs422AfterTheWholeBody) {
  TestServer s;
  std::string file = valid_file(5000);
  file.resize(4000);
  const HttpResponse r = upload(s.port(), file);
  ASSERT_EQ(r.status, 422u);
  EXPECT_EQ(str(obj(r).at("sha256")), sha256_hex(file));
  EXPECT_EQ(r.header("connection"), "");  // the body was read: the connection stays usable
}

TEST(ServiceValidate, EmptyBodyIs422Empty) {
  TestServer s;
  HttpResponse r = upload(s.port(), "");
  ASSERT_EQ(r.status, 422u);
  EXPECT_EQ(obj(r).at("findings").as_array().at(0).as_object().at("rule"), "FK.empty");
  EXPECT_EQ(obj(r).at("format"), "empty");
  r = upload(s.port(), "", "format=safetensors");  // forced: the format's own verdict
  EXPECT_EQ(obj(r).at("findings").as_array().at(0).as_object().at("rule"), "ST1.too-short");
}

TEST(ServiceValidate, HeaderAboveTheFormatCapIs422NotA413) {
  TestServer s;
  const std::string file = tgtest::st_file_n(100'000'001, "{}");
  Client c(s.port());
  c.send(head("POST", "/v1/validate", {"Content-Length: 200000000"}) + file);
  const HttpResponse r = c.read_response("POST", "/v1/validate");
  ASSERT_EQ(r.status, 422u);
  EXPECT_EQ(obj(r).at("findings").as_array().at(0).as_object().at("rule"), "ST1.header-too-large");
}

TEST(ServiceValidate, QueryOptions) {
  TestServer s;
  const std::string file = valid_file(512);
  HttpResponse r = upload(s.port(), file, "format=safetensors&tensors=false&digest=none");
  ASSERT_EQ(r.status, 200u);
  EXPECT_FALSE(obj(r).at("summary").as_object().contains("tensors"));
  EXPECT_TRUE(obj(r).at("sha256").is_null());
  r = upload(s.port(), file, "name=a%20b+c");
  EXPECT_EQ(obj(r).at("name"), "a b c");
  for (const char* bad : {"fromat=auto", "format=rar", "format=GGUF", "format=auto&format=auto", "name=%zz",
                          "tensors=maybe", "digest=md5"}) {
    r = upload(s.port(), file, bad);
    EXPECT_EQ(r.status, 400u) << bad;
    EXPECT_EQ(r.code(), "bad-query") << bad;
  }
}

// Chunked bodies cut inside the length prefix, inside the JSON header, at the header's end and
// in single bytes must all give the same report.
TEST(ServiceValidate, ChunkedUploadsSplitAtAwkwardPlaces) {
  TestServer s;
  const std::string file = valid_file(3000);
  const std::vector<std::vector<std::size_t>> splits = {
      {}, {1}, {3, 5}, {7, 1, 1}, {8}, {9, 2}, {20, 20, 20}, {80, 1, 1, 1}, {2999}, {1, 1, 1, 1, 1, 1, 1, 1, 1, 1}};
  for (const auto& sizes : splits) {
    Client c(s.port());
    const std::string body = chunked(file, sizes);
    const std::string request = head("POST", "/v1/validate", {"Transfer-Encoding: chunked"}) + body;
    // Also send the wire bytes themselves in odd pieces: inside chunk-size lines and CRLFs.
    for (std::size_t at = 0; at < request.size(); at += 7) c.send(request.substr(at, 7));
    const HttpResponse r = c.read_response("POST", "/v1/validate");
    ASSERT_EQ(r.status, 200u) << r.body;
    EXPECT_EQ(u64(obj(r).at("bytes_received")), file.size());
    EXPECT_EQ(str(obj(r).at("sha256")), sha256_hex(file));
  }
}

// Past its first MiB an upload's digest is hashed on a worker, a queue of blocks at a time,
// beside the reads (service/src/upload_digest.hpp; service_digest_test.cpp tests the queue):
// the digest is still the whole body's, at the boundary, across blocks, chunked or not, and
// with many uploads at once on two event-loop threads.
TEST(ServiceValidate, DigestOfLargeUploadsHashedBesideTheReads) {
  TestServer s;
  constexpr std::size_t kMiB = std::size_t{1} << 20;
  for (const std::size_t size : {kMiB, kMiB + 1, 3 * kMiB - 7, 24 * kMiB}) {
    const std::string file = valid_file(size);
    const HttpResponse r = upload(s.port(), file);
    ASSERT_EQ(r.status, 200u) << r.body;
    EXPECT_EQ(str(obj(r).at("sha256")), sha256_hex(file)) << size;
    EXPECT_EQ(u64(obj(r).at("bytes_received")), file.size());
  }
  const std::string file = valid_file(9 * kMiB + 3);
  Client c(s.port());
  c.send(head("POST", "/v1/validate", {"Transfer-Encoding: chunked"}) + chunked(file, {100, 70000, 1 << 20, 5}));
  const HttpResponse r = c.read_response("POST", "/v1/validate");
  ASSERT_EQ(r.status, 200u) << r.body;
  EXPECT_EQ(str(obj(r).at("sha256")), sha256_hex(file));
  std::vector<std::thread> clients;
  std::atomic<int> right{0};
  for (int i = 0; i < 6; ++i)
    clients.emplace_back([&, i] {
      const std::string f = valid_file(5 * kMiB + static_cast<std::size_t>(i) * 4099);
      const HttpResponse a = upload(s.port(), f);
      if (a.status == 200 && str(a.json().as_object().at("sha256")) == sha256_hex(f)) ++right;
    });
  for (std::thread& t : clients) t.join();
  EXPECT_EQ(right.load(), 6);
}

// Past the first MiB the body is read into the digest's blocks: requests pipelined behind a
// large upload (read with its last bytes, or left in the socket) are still answered, in order,
// and each upload's digest is its own body's.
TEST(ServiceValidate, RequestsPipelinedBehindLargeUploadsAreAnswered) {
  TestServer s;
  constexpr std::size_t kMiB = std::size_t{1} << 20;
  const std::string a = valid_file(3 * kMiB + 17);
  const std::string b = valid_file(4 * kMiB + 5);
  std::vector<std::size_t> chunks;  // many chunks, so that blocks hold chunk headers
  for (std::size_t sum = 0; sum < b.size(); sum += chunks.back()) chunks.push_back(chunks.size() % 3 ? 4096 : 65000);
  Client c(s.port());
  c.send(head("POST", "/v1/validate", {"Content-Length: " + std::to_string(a.size())}) + a +
         head("GET", "/livez") +
         head("POST", "/v1/validate", {"Transfer-Encoding: chunked"}) + chunked(b, chunks) +
         head("GET", "/readyz") +
         head("POST", "/v1/validate", {"Content-Length: " + std::to_string(a.size())}) + a);
  const std::vector<std::pair<std::string, const std::string*>> answers = {
      {"/v1/validate", &a}, {"/livez", nullptr}, {"/v1/validate", &b}, {"/readyz", nullptr}, {"/v1/validate", &a}};
  for (const auto& [target, body] : answers) {
    const HttpResponse r = c.read_response(body ? "POST" : "GET", target);
    ASSERT_EQ(r.status, 200u) << target << " " << r.body;
    if (!body) continue;
    EXPECT_EQ(str(obj(r).at("sha256")), sha256_hex(*body));
    EXPECT_EQ(u64(obj(r).at("bytes_received")), body->size());
  }
}

// A chunk header longer than read-buffer-bytes is refused, whether the body is still read into
// the session's buffer or, past the digest's first MiB, into the digest's blocks.
TEST(ServiceValidate, AChunkHeaderOverTheReadBufferIs400) {
  TestServer s;
  const std::string file = valid_file(3 << 20);
  for (const std::size_t before : {std::size_t{1000}, std::size_t{2} << 20}) {
    std::string chunks = chunked(file.substr(0, before), {});
    chunks.resize(chunks.size() - 5);  // no last chunk: "0\r\n\r\n"
    Client c(s.port());
    c.send(head("POST", "/v1/validate", {"Transfer-Encoding: chunked"}) + chunks + "10;x=" +
           std::string(70'000, 'a') + "\r\n");
    const HttpResponse r = c.read_response("POST", "/v1/validate");
    EXPECT_EQ(r.status, 400u) << before << " " << r.body;
    EXPECT_NE(r.body.find("a chunk header or the trailer is too large"), std::string::npos) << r.body;
  }
}

TEST(ServiceValidate, ChunkedWithExtensionsAndTrailer) {
  TestServer s;
  const std::string file = valid_file(200);
  Client c(s.port());
  c.send(head("POST", "/v1/validate", {"Transfer-Encoding: chunked"}) + "64;ext=1\r\n" +
         file.substr(0, 100) + "\r\n64\r\n" + file.substr(100) + "\r\n0\r\nX-Trailer: 1\r\n\r\n");
  EXPECT_EQ(c.read_response("POST", "/v1/validate").status, 200u);
}

TEST(ServiceValidate, ExpectContinueGets100ThenTheVerdict) {
  TestServer s;
  const std::string file = valid_file(1000);
  Client c(s.port());
  c.send(head("POST", "/v1/validate", {"Content-Length: 1000", "Expect: 100-continue"}));
  EXPECT_EQ(c.read_response().status, 100u);
  c.send(file);
  EXPECT_EQ(c.read_response("POST", "/v1/validate").status, 200u);
}

TEST(ServiceValidate, EarlyContentLength413BeforeContinueAndBeforeTheBody) {
  ServiceConfig cfg = test_config();
  cfg.max_body_bytes = 1'000'000;
  TestServer s(cfg);
  Client c(s.port());
  c.send(head("POST", "/v1/validate", {"Content-Length: 1000001", "Expect: 100-continue"}));
  const HttpResponse r = c.read_response("POST", "/v1/validate");
  EXPECT_EQ(r.status, 413u);  // not 100
  EXPECT_EQ(r.code(), "body-too-large");
  EXPECT_EQ(u64(obj(r).at("bytes_received")), 0u);
  EXPECT_EQ(r.header("connection"), "close");
  EXPECT_TRUE(c.closed_by_peer());
  // Without Expect the answer comes before the client sends any body byte as well.
  Client d(s.port());
  d.send(head("POST", "/v1/validate", {"Content-Length: 50000000000"}));
  EXPECT_EQ(d.read_response("POST", "/v1/validate").status, 413u);
}

TEST(ServiceValidate, ChunkedBodyOverTheLimitIs413) {
  ServiceConfig cfg = test_config();
  cfg.max_body_bytes = 10'000;
  TestServer s(cfg);
  Client c(s.port());
  const std::string file = valid_file(20'000);
  c.send(head("POST", "/v1/validate", {"Transfer-Encoding: chunked"}) + chunked(file, {5000, 5000, 5000}));
  const HttpResponse r = c.read_response("POST", "/v1/validate");
  EXPECT_EQ(r.status, 413u);
  EXPECT_EQ(r.code(), "body-too-large");
  EXPECT_GT(u64(obj(r).at("bytes_received")), 10'000u);
}

// The header is invalid: the answer comes while the client still holds most of the body, with
// exactly the bytes it sent so far, and the connection is then closed.
TEST(ServiceValidate, Early422WithTheBytesActuallyRead) {
  TestServer s;
  const std::string file = invalid_header_file(1'000'000);
  const std::size_t sent = file.size() - 1'000'000 + 10;  // the header and 10 data bytes
  Client c(s.port());
  c.send(head("POST", "/v1/validate", {"Content-Length: " + std::to_string(file.size())}) +
         file.substr(0, sent));
  const HttpResponse r = c.read_response("POST", "/v1/validate");
  ASSERT_EQ(r.status, 422u);
  EXPECT_EQ(u64(obj(r).at("bytes_received")), sent);
  EXPECT_EQ(obj(r).at("complete"), false);
  EXPECT_TRUE(obj(r).at("sha256").is_null());
  EXPECT_EQ(r.header("connection"), "close");
  EXPECT_TRUE(c.closed_by_peer());
  EXPECT_EQ(wait_for_metric(s.port(), "tensorgate_body_bytes_received_total", static_cast<double>(sent)),
            static_cast<double>(sent));
}

TEST(ServiceValidate, Early422KeepsDrainingSoTheClientCanFinishSending) {
  TestServer s;
  const std::string file = invalid_header_file(200'000);
  Client c(s.port());
  c.send(head("POST", "/v1/validate", {"Content-Length: " + std::to_string(file.size())}) +
         file.substr(0, 200));
  EXPECT_EQ(c.read_response("POST", "/v1/validate").status, 422u);
  EXPECT_TRUE(c.send(file.substr(200)));  // read and discarded during the linger, not reset
  EXPECT_TRUE(c.closed_by_peer());
}

TEST(ServiceValidate, HeaderAboveTheServiceLimitIs413ValidationLimit) {
  ServiceConfig cfg = test_config();
  cfg.max_safetensors_header_bytes = 1000;
  TestServer s(cfg);
  const std::string file = tgtest::st_file(std::string(2000, ' ') + "{}");
  const HttpResponse r = upload(s.port(), file);
  EXPECT_EQ(r.status, 413u);
  EXPECT_EQ(r.code(), "validation-limit");
  EXPECT_EQ(obj(r).at("limit"), "header-bytes");
}

TEST(ServiceValidate, SpentHeaderBudgetIs503WithRetryAfter) {
  ServiceConfig cfg = test_config();
  cfg.header_memory_budget_bytes = 1000;
  TestServer s(cfg);
  const std::string big = valid_file(4000, std::string(1200, 'x'));
  const HttpResponse r = upload(s.port(), big);
  EXPECT_EQ(r.status, 503u);
  EXPECT_EQ(r.code(), "memory-budget");
  EXPECT_EQ(r.header("retry-after"), "5");
  EXPECT_EQ(upload(s.port(), valid_file(4000)).status, 200u);  // a small header still fits
}

TEST(ServiceValidate, UploadsPastTheLimitAre503) {
  ServiceConfig cfg = test_config();
  cfg.max_concurrent_uploads = 1;
  TestServer s(cfg);
  const std::string file = valid_file(1000);
  Client first(s.port());
  first.send(head("POST", "/v1/validate", {"Content-Length: 1000", "Expect: 100-continue"}));
  ASSERT_EQ(first.read_response().status, 100u);  // the first upload holds the slot
  const HttpResponse r = upload(s.port(), file);
  EXPECT_EQ(r.status, 503u);
  EXPECT_EQ(r.code(), "over-capacity");
  EXPECT_FALSE(r.header("retry-after").empty());
  first.send(file);
  EXPECT_EQ(first.read_response("POST", "/v1/validate").status, 200u);
  EXPECT_EQ(wait_for_metric(s.port(), "tensorgate_uploads_in_flight", 0), 0);
  EXPECT_EQ(upload(s.port(), file).status, 200u);  // the slot is free again
}

TEST(ServiceValidate, SeveralUploadsOnOneConnection) {
  TestServer s;
  Client c(s.port());
  for (int i = 0; i < 3; ++i) {
    const std::string file = valid_file(500 + static_cast<std::size_t>(i));
    c.send(head("POST", "/v1/validate", {"Content-Length: " + std::to_string(file.size())}) + file);
    const HttpResponse r = c.read_response("POST", "/v1/validate");
    EXPECT_EQ(r.status, 200u);
    EXPECT_EQ(str(obj(r).at("sha256")), sha256_hex(file));
  }
}

}  // namespace
}  // namespace tgservice
