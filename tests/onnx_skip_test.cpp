// Skipping what the ONNX validator does not look at (Validator::bytes_skippable): every ONNX test
// input, the fixtures python3-onnx wrote and the fuzzer's corpus, gives the report it gives fed
// whole when every run offered is skipped; raw data, string data and doc strings are offered, the
// fields that are read never are; a run the input is too short for is skipped as far as the
// input goes and is the same truncation as when fed.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "stream_check.hpp"
#include "tensorgate/detect.hpp"
#include "tensorgate/onnx.hpp"
#include "tensorgate/report_writers.hpp"
#include "tensorgate/validator.hpp"
#include "wire_builder.hpp"

namespace {

using namespace tgtest::wire;
using tensorgate::Report;

std::string read_all(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The fixtures and the fuzzer's corpus (regressions included): every ONNX input the tests have.
std::vector<std::filesystem::path> test_inputs() {
  std::vector<std::filesystem::path> out;
  const std::string root = TG_SOURCE_DIR;
  for (const auto& e : std::filesystem::directory_iterator(root + "/tests/data/onnx"))
    if (e.path().extension() == ".onnx") out.push_back(e.path());
  for (const auto& e : std::filesystem::recursive_directory_iterator(root + "/corpus/onnx_fuzzer"))
    if (e.is_regular_file()) out.push_back(e.path());
  return out;
}

tgtest::ValidatorFactory onnx() {
  return [] { return tensorgate::make_onnx_validator(); };
}
tgtest::ValidatorFactory detected() {
  return [] { return tensorgate::make_validator(tensorgate::FormatChoice::auto_detect, "model.onnx", {}); };
}

std::string whole(const tgtest::ValidatorFactory& make, std::string_view bytes) {
  auto v = make();
  return tensorgate::report_json(tensorgate::validate_whole(*v, bytes));
}

// A model whose one initializer holds `raw` bytes of raw_data (FLOAT, so raw / 4 elements).
std::string raw_model(std::size_t raw) {
  const std::string t = field_varint(1, raw / 4) + field_varint(2, 1) + field_len(8, "w") + field_len(9, std::string(raw, '\x5a'));
  const std::string graph = field_len(5, t) + field_len(11, field_len(1, "x")) + field_len(12, field_len(1, "w"));
  return field_varint(1, 8) + field_len(2, "hand") + field_len(8, field_varint(2, 13)) + field_len(7, graph);
}

TEST(OnnxSkip, EveryTestInputGivesTheSameReportSkippedWhereverOffered) {
  const std::vector<std::filesystem::path> inputs = test_inputs();
  ASSERT_GT(inputs.size(), 100u);
  std::uint64_t skipped = 0;
  for (const auto& path : inputs) {
    const std::string bytes = read_all(path);
    const std::string want = whole(onnx(), bytes);
    for (const bool hint : {true, false})
      for (const std::size_t piece : {std::size_t{1}, std::size_t{3}, std::size_t{64}})
        EXPECT_EQ(tensorgate::report_json(tgtest::skipping_runs(onnx(), bytes, hint, piece, &skipped)), want)
            << path << ", size told " << hint << ", pieces of " << piece;
  }
  EXPECT_GT(skipped, 0u) << "no test input offered a run: the invariant was never put to the test";
}

TEST(OnnxSkip, RawDataIsOfferedFromWhereverTheValidatorStands) {
  const std::string bytes = raw_model(1000);
  const std::size_t raw_at = bytes.find(std::string(1000, '\x5a'));
  ASSERT_NE(raw_at, std::string::npos);
  auto v = tensorgate::make_onnx_validator();
  v->feed(std::string_view(bytes).substr(0, raw_at));
  EXPECT_EQ(v->bytes_skippable(), 1000u);
  v->feed(std::string_view(bytes).substr(raw_at, 10));
  EXPECT_EQ(v->bytes_skippable(), 990u);
  v->skip(990);
  EXPECT_EQ(v->bytes_skippable(), 0u);  // the graph's inputs and outputs are read
  EXPECT_GT(v->bytes_wanted(), 0u);
  v->feed(std::string_view(bytes).substr(raw_at + 1000));
  const Report r = v->finish();
  EXPECT_EQ(tensorgate::report_json(r), whole(onnx(), bytes));
  EXPECT_TRUE(r.valid);
  EXPECT_EQ(r.bytes_seen, bytes.size());
}

TEST(OnnxSkip, ARunPastTheEndIsTheTruncationFeedingFinds) {
  const std::string bytes = raw_model(1 << 16);
  const std::string cut = bytes.substr(0, bytes.size() - 40000);  // inside the raw data
  std::uint64_t skipped = 0;
  const Report r = tgtest::skipping_runs(onnx(), cut, true, 64, &skipped);
  EXPECT_EQ(tensorgate::report_json(r), whole(onnx(), cut));
  EXPECT_EQ(tgtest::errors_of(r), "OX.wire");
  EXPECT_EQ(tgtest::message_of(r, "OX.wire"), "the input ends inside a field or a message");
  EXPECT_GT(skipped, 20000u);
}

TEST(OnnxSkip, DocStringsAndStringDataAreOfferedNamesAreNot) {
  const std::string strings = field_varint(1, 2) + field_varint(2, 8) + field_len(8, std::string(300, 'n')) +
                              field_len(6, std::string(300, 's')) + field_len(6, std::string(300, 't'));
  const std::string graph = field_len(5, strings) + field_len(10, std::string(300, 'd'));  // and the graph's doc_string
  const std::string m = field_varint(1, 8) + field_len(6, std::string(300, 'D')) + field_len(8, field_varint(2, 13)) + field_len(7, graph);
  std::uint64_t skipped = 0;
  const Report r = tgtest::skipping_runs(onnx(), m, true, 1, &skipped);
  EXPECT_EQ(tensorgate::report_json(r), whole(onnx(), m));
  EXPECT_EQ(tgtest::errors_of(r), "");
  // Byte by byte, each run is offered whole once its length is read: all 300 of each of the four.
  EXPECT_EQ(skipped, 4u * 300u);
}

TEST(OnnxSkip, DetectionKeepsTheTailWindowOutOfTheRun) {
  const std::string bytes = raw_model(200000);
  const std::string want = whole(detected(), bytes);
  std::uint64_t skipped = 0;
  EXPECT_EQ(tensorgate::report_json(tgtest::skipping_runs(detected(), bytes, true, 4096, &skipped)), want);
  // What detection looks at first and the end record's window are fed, the rest of the raw data
  // between them skipped; without the size the window is unknown and nothing is offered.
  EXPECT_GT(skipped, 0u);
  EXPECT_LE(skipped, bytes.size() - (22 + 65536));
  std::uint64_t unsized = 0;
  EXPECT_EQ(tensorgate::report_json(tgtest::skipping_runs(detected(), bytes, false, 4096, &unsized)), want);
  EXPECT_EQ(unsized, 0u);
  tgtest::check_detected("model.onnx", bytes);  // and every other way of feeding it
}

}  // namespace
