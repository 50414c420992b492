// The JSON report: one document, stable field names, valid UTF-8 whatever the input holds.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include "st_builder.hpp"
#include "tensorgate/report_writers.hpp"
#include "tensorgate/validator.hpp"

namespace json = boost::json;

namespace {

std::string json_of(const std::vector<tensorgate::CheckedFile>& files, bool tensors = true) {
  std::string out;
  tensorgate::write_json_report(files, tensorgate::ReportOptions{tensors, false},
                                [&](std::string_view s) { out += s; });
  return out;
}

tensorgate::CheckedFile checked(std::string path, const std::string& bytes) {
  return tensorgate::CheckedFile{std::move(path), tgtest::check(bytes), std::nullopt};
}

}  // namespace

TEST(ReportJson, DocumentShape) {
  const auto doc = json::parse(json_of({checked("a.safetensors", tgtest::st_file(
      R"({"w":{"dtype":"F33","shape":[1],"data_offsets":[0,4]}})", tgtest::zeros(4)))}));
  EXPECT_EQ(doc.at("schema"), "tensorgate.report/1");
  const auto& file = doc.at("files").at(0);
  EXPECT_EQ(file.at("path"), "a.safetensors");
  EXPECT_EQ(file.at("format"), "safetensors");
  EXPECT_EQ(file.at("valid"), false);
  EXPECT_TRUE(file.at("canonical").is_null());
  const auto& f = file.at("findings").at(0);
  EXPECT_EQ(f.at("rule"), "ST4.dtype");
  EXPECT_EQ(f.at("severity"), "error");
  EXPECT_EQ(f.at("offset"), 23);  // the dtype value
  EXPECT_EQ(f.at("tensor"), "w");
  EXPECT_TRUE(file.at("summary").is_null());
}

TEST(ReportJson, SummaryOfAValidFile) {
  const auto doc = json::parse(json_of({checked("m", tgtest::st_file(
      R"({"__metadata__":{"format":"pt"},"model.layers.0.self_attn.q_proj.weight":{"dtype":"BF16","shape":[2,2],"data_offsets":[0,8]},"s":{"dtype":"F32","shape":[],"data_offsets":[8,12]}})",
      tgtest::zeros(12)))}));
  const auto& s = doc.at("files").at(0).at("summary");
  EXPECT_EQ(s.at("tensor_count"), 2);
  EXPECT_EQ(s.at("parameters"), 5);
  EXPECT_EQ(s.at("bytes"), 12);
  EXPECT_EQ(s.at("dtypes").at("BF16").at("parameters"), 4);
  EXPECT_EQ(s.at("dtypes").at("F32").at("parameters"), 1);
  EXPECT_EQ(s.at("metadata").at("format"), "pt");
  EXPECT_EQ(s.at("architecture"), "llama");
  EXPECT_EQ(s.at("layers"), 1);
  EXPECT_EQ(s.at("tensors").as_array().size(), 2u);
  EXPECT_EQ(s.at("tensors").at(1).at("shape").as_array().size(), 0u);
}

TEST(ReportJson, TensorsCanBeLeftOut) {
  const auto doc = json::parse(json_of({checked("m", tgtest::st_file(
      R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", tgtest::zeros(4)))}, false));
  EXPECT_FALSE(doc.at("files").at(0).at("summary").as_object().contains("tensors"));
}

TEST(ReportJson, InvalidUtf8AndControlBytesStayValidJson) {
  tensorgate::CheckedFile f{std::string("bad\xff\x01name\xc3", 10), std::nullopt, "cannot open: \x80"};
  const std::string text = json_of({f});
  const auto doc = json::parse(text);  // Boost.JSON rejects invalid UTF-8
  EXPECT_EQ(doc.at("files").at(0).at("path"), "bad\xEF\xBF\xBD\x01name\xEF\xBF\xBD");
  EXPECT_EQ(doc.at("files").at(0).at("valid"), false);
}

TEST(ReportJson, SarifCarriesTheCatalogueAndByteRegions) {
  std::string out;
  tensorgate::write_sarif_report(
      std::vector{checked("dir/a b.safetensors", tgtest::st_file(
          R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}})", tgtest::zeros(4)))},
      {}, [&](std::string_view s) { out += s; });
  const auto doc = json::parse(out);
  EXPECT_EQ(doc.at("version"), "2.1.0");
  const auto& run = doc.at("runs").at(0);
  EXPECT_EQ(run.at("tool").at("driver").at("rules").as_array().size(), tensorgate::all_rules().size());
  const auto& result = run.at("results").at(0);
  EXPECT_EQ(result.at("ruleId"), "ST4.size-mismatch");
  EXPECT_EQ(result.at("level"), "error");
  const auto& loc = result.at("locations").at(0).at("physicalLocation");
  EXPECT_EQ(loc.at("artifactLocation").at("uri"), "dir/a%20b.safetensors");
  EXPECT_EQ(loc.at("region").at("byteOffset"), 9);
  const auto& rule = run.at("tool").at("driver").at("rules").at(result.at("ruleIndex").as_int64());
  EXPECT_EQ(rule.at("id"), "ST4.size-mismatch");
}

TEST(ReportJson, TextIsAlignedAndUncolouredByDefault) {
  std::string out;
  tensorgate::write_text_report(
      std::vector{checked("x.safetensors", tgtest::st_file(
          R"({"w":{"dtype":"F33","shape":[1],"data_offsets":[0,4]},"v":{"dtype":"F32","shape":[1],"data_offsets":[4,8],"q":1}})",
          tgtest::zeros(8)))},
      {}, [&](std::string_view s) { out += s; });
  EXPECT_EQ(out.find('\x1b'), std::string::npos);
  EXPECT_NE(out.find("x.safetensors: INVALID safetensors, 1 error, 1 warning"), std::string::npos) << out;
  EXPECT_NE(out.find("  error   ST4.dtype          @23   tensor \"w\": unknown dtype \"F33\""), std::string::npos) << out;
}

// No report grows with one hostile value: long strings are cut on a UTF-8 boundary and each cut
// is stated with the full length and digest; a key too long to echo is left out of the map.
TEST(ReportJson, LongValuesAreCutAndTheCutIsStated) {
  const std::string value = std::string(5000, 'v') + "\xC3\xA9";  // ends in a two-byte character
  const std::string long_key(5000, 'k');
  const std::string name = std::string(4095, 'n') + "\xC3\xA9";    // the cut falls inside the é
  const std::string header = R"({"__metadata__":{"v":")" + value + R"(",")" + long_key + R"(":"x"},")" + name +
                             R"(":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})";
  const auto doc = json::parse(json_of({checked("a.safetensors", tgtest::st_file(header, tgtest::zeros(4)))}));
  const auto& s = doc.at("files").at(0).at("summary");
  EXPECT_EQ(s.at("metadata").at("v").as_string().size(), 4096u);
  EXPECT_FALSE(s.at("metadata").as_object().contains(long_key));
  EXPECT_EQ(s.at("tensors").at(0).at("name").as_string().size(), 4095u);  // é not split
  const auto& t = s.at("truncated");
  EXPECT_EQ(t.at("max_string_bytes"), 4096);
  const auto& cuts = t.at("strings").as_array();
  ASSERT_EQ(cuts.size(), 3u);
  EXPECT_EQ(cuts[0].at("field"), "metadata value");
  EXPECT_EQ(cuts[0].at("key"), "v");
  EXPECT_EQ(cuts[0].at("bytes"), value.size());
  EXPECT_EQ(cuts[0].at("sha256").as_string().size(), 64u);
  EXPECT_EQ(cuts[1].at("field"), "metadata key");
  EXPECT_EQ(cuts[2].at("field"), "tensor name");
  EXPECT_EQ(t.at("metadata_omitted"), 1);
}

TEST(ReportJson, NothingCutMeansTruncatedNull) {
  const auto doc = json::parse(json_of({checked("a.safetensors", tgtest::st_file(
      R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", tgtest::zeros(4)))}));
  EXPECT_TRUE(doc.at("files").at(0).at("summary").at("truncated").is_null());
}

TEST(ReportJson, InventoryCapCountsWhatItLeavesOut) {
  std::string header = "{";
  for (int i = 0; i < 5; ++i)
    header += std::string(i ? "," : "") + "\"t" + std::to_string(i) + R"(":{"dtype":"U8","shape":[1],"data_offsets":[)" +
              std::to_string(i) + "," + std::to_string(i + 1) + "]}";
  header += "}";
  tensorgate::ReportOptions options;
  options.limits.max_tensors = 2;
  std::string out;
  tensorgate::write_json_report(std::vector{checked("a.safetensors", tgtest::st_file(header, tgtest::zeros(5)))}, options,
                                [&](std::string_view s) { out += s; });
  const auto s = json::parse(out).at("files").at(0).at("summary");
  EXPECT_EQ(s.at("tensors").as_array().size(), 2u);
  EXPECT_EQ(s.at("truncated").at("tensors_omitted"), 3);
}

// An aborted check has no verdict: valid is null, not false.
TEST(ReportJson, AbortedCheckHasNoVerdict) {
  tensorgate::Limits limits;
  limits.max_header_bytes = 16;
  tensorgate::CheckedFile f{"a.safetensors",
                            tensorgate::validate_safetensors(tgtest::st_file(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", tgtest::zeros(4)), limits),
                            std::nullopt};
  ASSERT_TRUE(f.report->aborted);
  const auto file = json::parse(json_of({f})).at("files").at(0);
  EXPECT_TRUE(file.at("valid").is_null());
  EXPECT_EQ(file.at("aborted").at("limit"), "header-bytes");
}
