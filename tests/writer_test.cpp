// The canonical writer: byte-identical to the reference library (docs/rules.md, STC1-STC4).
#include <gtest/gtest.h>

#include <cstring>

#include "st_builder.hpp"
#include "tensorgate/safetensors/writer.hpp"
#include "tensorgate/safetensors/summary.hpp"

using tensorgate::Dtype;
using tensorgate::TensorSpec;
using tensorgate::SafetensorsSummary;

namespace {

std::span<const std::byte> bytes_of(const std::string& s) {
  return std::as_bytes(std::span<const char>(s.data(), s.size()));
}

std::string le_floats(std::initializer_list<float> values) {
  std::string out;
  for (float f : values) {
    char b[4];
    std::memcpy(b, &f, 4);
    out.append(b, 4);
  }
  return out;
}

}  // namespace

TEST(Writer, SeedWorkedExampleIsExactly120Bytes) {
  const std::string data = le_floats({1, 2, 3, 4});
  const TensorSpec w{"w", Dtype::F32, {2, 2}, bytes_of(data)};
  const auto out = tensorgate::write_safetensors(std::span(&w, 1), {{"format", "tinyllm"}});
  ASSERT_TRUE(out.ok()) << out.error;
  std::string expected("\x60\0\0\0\0\0\0\0", 8);
  expected += R"({"__metadata__":{"format":"tinyllm"},"w":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]}})";
  expected += "   ";
  expected += std::string("\x00\x00\x80\x3f\x00\x00\x00\x40\x00\x00\x40\x40\x00\x00\x80\x40", 16);
  EXPECT_EQ(out.bytes.size(), 120u);
  EXPECT_EQ(out.bytes, expected);
}

TEST(Writer, MultiDtypeGoldenBytes) {
  // Tensors given in arbitrary order; the writer orders them by dtype (F64, F32, BF16, F16,
  // I8, BOOL here), then by name bytes ("B" < "a"), and lays the data out in that order.
  const std::string f64(8, '\x11'), f32a(8, '\x22'), f32b(4, '\x33'), bf16(2, '\x44'),
      f16(6, '\x55'), i8(3, '\x66'), boolean(1, '\x01');
  std::vector<TensorSpec> tensors{
      {"bool", Dtype::BOOL, {1}, bytes_of(boolean)},
      {"i8", Dtype::I8, {3}, bytes_of(i8)},
      {"a", Dtype::F32, {2}, bytes_of(f32a)},
      {"half", Dtype::F16, {1, 3}, bytes_of(f16)},
      {"B", Dtype::F32, {}, bytes_of(f32b)},
      {"brain", Dtype::BF16, {1}, bytes_of(bf16)},
      {"dbl", Dtype::F64, {1}, bytes_of(f64)},
  };
  const auto out = tensorgate::write_safetensors(tensors, {{"format", "pt"}});
  ASSERT_TRUE(out.ok()) << out.error;
  const std::string header =
      R"({"__metadata__":{"format":"pt"},)"
      R"("dbl":{"dtype":"F64","shape":[1],"data_offsets":[0,8]},)"
      R"("B":{"dtype":"F32","shape":[],"data_offsets":[8,12]},)"
      R"("a":{"dtype":"F32","shape":[2],"data_offsets":[12,20]},)"
      R"("brain":{"dtype":"BF16","shape":[1],"data_offsets":[20,22]},)"
      R"("half":{"dtype":"F16","shape":[1,3],"data_offsets":[22,28]},)"
      R"("i8":{"dtype":"I8","shape":[3],"data_offsets":[28,31]},)"
      R"("bool":{"dtype":"BOOL","shape":[1],"data_offsets":[31,32]}})";
  ASSERT_EQ(header.size(), 429u);
  std::string expected("\xb0\x01\0\0\0\0\0\0", 8);  // N = 432: 429 bytes and 3 spaces
  expected += header + "   ";
  expected += f64 + f32b + f32a + bf16 + f16 + i8 + boolean;
  EXPECT_EQ(out.bytes, expected);
  const auto r = tgtest::check(out.bytes);
  EXPECT_TRUE(r.valid);
  EXPECT_EQ(r.canonical, true) << tgtest::ids(r);
}

TEST(Writer, EscapesNamesLikeSerdeJson) {
  const std::string data(4, '\0');
  const TensorSpec t{std::string("q\"\\\b\f\n\r\t\x01\x1f\x7f/\xc3\xa9", 14), Dtype::F32, {1}, bytes_of(data)};
  const auto out = tensorgate::write_safetensors(std::span(&t, 1));
  ASSERT_TRUE(out.ok());
  EXPECT_NE(out.bytes.find(R"("q\"\\\b\f\n\r\t\u0001\u001f)" "\x7f/\xc3\xa9\""), std::string::npos);
  EXPECT_EQ(tgtest::check(out.bytes).canonical, true);
}

TEST(Writer, EmptyMetadataIsOmittedAndKeysSorted) {
  const auto none = tensorgate::write_safetensors({}, {});
  EXPECT_EQ(none.bytes, std::string("\x08\0\0\0\0\0\0\0{}      ", 16));
  const auto sorted = tensorgate::write_safetensors({}, {{"b", "2"}, {"a", "1"}});
  EXPECT_NE(sorted.bytes.find(R"({"__metadata__":{"a":"1","b":"2"}})"), std::string::npos);
}

TEST(Writer, RefusesDuplicatesInvalidUtf8AndWrongSizes) {
  const std::string four(4, '\0');
  std::vector<TensorSpec> dup{{"a", Dtype::F32, {1}, bytes_of(four)}, {"a", Dtype::F32, {1}, bytes_of(four)}};
  EXPECT_FALSE(tensorgate::write_safetensors(dup).ok());
  std::vector<TensorSpec> across_dtypes{{"a", Dtype::F32, {1}, bytes_of(four)}, {"b", Dtype::I8, {4}, bytes_of(four)},
                                        {"a", Dtype::U8, {4}, bytes_of(four)}};
  EXPECT_EQ(tensorgate::write_safetensors(across_dtypes).error, "duplicate tensor name");
  const TensorSpec wrong{"a", Dtype::F32, {2}, bytes_of(four)};
  EXPECT_FALSE(tensorgate::write_safetensors(std::span(&wrong, 1)).ok());
  const TensorSpec reserved{"__metadata__", Dtype::F32, {1}, bytes_of(four)};
  EXPECT_EQ(tensorgate::write_safetensors(std::span(&reserved, 1)).error, "tensor name __metadata__ is reserved");
  const TensorSpec bad_name{"a\xff", Dtype::F32, {1}, bytes_of(four)};
  EXPECT_EQ(tensorgate::write_safetensors(std::span(&bad_name, 1)).error, "tensor name is not valid UTF-8");
  EXPECT_EQ(tensorgate::write_safetensors({}, {{"k", "\xc0\x80"}}).error, "metadata is not valid UTF-8");
}

TEST(Writer, RewriteOfAParsedFileIsCanonicalAndSummarizesTheSame) {
  const std::string original = tgtest::st_file(
      R"({"b": {"shape":[2],"dtype":"I8","data_offsets":[0,2]}, "a":{"dtype":"F32","shape":[1],"data_offsets":[2,6]}, "__metadata__":{"z":"1","y":"2"}})",
      "abcdef");
  const auto r = tgtest::check(original);
  ASSERT_TRUE(r.valid);
  EXPECT_EQ(r.canonical, false);
  const std::string_view data = std::string_view(original).substr(8 + r.summary.get<SafetensorsSummary>()->header_length);
  const auto rewritten = tensorgate::rewrite_canonical(
      *r.summary.get<SafetensorsSummary>()->tensors, std::as_bytes(std::span<const char>(data.data(), data.size())));
  ASSERT_TRUE(rewritten.ok());
  const auto again = tgtest::check(rewritten.bytes);
  EXPECT_EQ(again.canonical, true);
  EXPECT_EQ(again.summary.get<SafetensorsSummary>()->parameters, r.summary.get<SafetensorsSummary>()->parameters);
  EXPECT_EQ(rewritten.bytes.substr(rewritten.bytes.size() - 6), "cdefab");
}
