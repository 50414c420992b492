// TFLite flatbuffers (core/src/tflite, family TFL): models shaped as TensorFlow's converter writes
// them (tests/data/tflite/make_fixtures.py), through format detection as `tensorgate check
// model.tflite` sees them, in any chunks and with every offered run of tensor data skipped. Each
// rule both ways, the flatbuffer verifier's checks on hand-corrupted files, the limits.
#include <gtest/gtest.h>

#include <string>

#include "stream_check.hpp"
#include "tensorgate/detect.hpp"
#include "tensorgate/tflite.hpp"
#include "tensorgate/validator.hpp"
#include "test_data.hpp"

namespace {

using tensorgate::Limits;
using tensorgate::Report;
using tensorgate::TfliteSummary;
using tgtest::check_detected;
using tgtest::errors_of;
using tgtest::message_of;
using tgtest::warnings_of;

std::string fixture(const std::string& name) { return tgtest::test_data("tflite/" + name); }

Report check(const std::string& name, const Limits& limits = {}) { return check_detected(name, fixture(name), limits); }

const TfliteSummary& tfl(const Report& r) {
  static const TfliteSummary none;
  const TfliteSummary* s = r.summary.get<TfliteSummary>();
  EXPECT_NE(s, nullptr);
  return s ? *s : none;
}

bool mentions(const Report& r, const std::string& id, const std::string& text) {
  return message_of(r, id).find(text) != std::string::npos;
}

TEST(Tflite, AConverterShapedModelPassesWithItsSummary) {
  const Report r = check("model.tflite");
  EXPECT_EQ(r.format, tensorgate::Format::tflite);
  EXPECT_TRUE(r.valid) << errors_of(r);
  EXPECT_TRUE(r.findings.empty()) << warnings_of(r);
  const TfliteSummary& s = tfl(r);
  EXPECT_EQ(s.version, 3u);
  EXPECT_EQ(s.description, "MLIR Converted.");
  ASSERT_EQ(s.subgraphs.size(), 1u);
  EXPECT_EQ(s.subgraphs[0].name, "main");
  EXPECT_EQ(s.subgraphs[0].tensors, 7u);
  EXPECT_EQ(s.subgraphs[0].operators, 2u);
  ASSERT_EQ(s.operator_codes.size(), 2u);
  EXPECT_EQ(s.operator_codes[0].name, "FULLY_CONNECTED");
  EXPECT_EQ(s.operator_codes[0].uses, 1u);
  EXPECT_EQ(s.operator_codes[1].name, "ADD");
  ASSERT_EQ(s.tensors.size(), 7u);
  EXPECT_EQ(s.tensors[1].name, "sequential/dense/MatMul");
  EXPECT_EQ(s.tensors[1].type, "INT8");
  EXPECT_EQ(s.tensors[1].shape, (std::vector<std::int64_t>{3, 4}));
  EXPECT_EQ(s.tensors[1].bytes, 12u);
  EXPECT_EQ(s.tensors[2].type, "FLOAT32");
  EXPECT_EQ(s.buffers, 9u);
  EXPECT_EQ(s.buffer_bytes, 12u + 12 + 12 + 16);
  EXPECT_EQ(s.parameters, 12u + 3 + 3);
  EXPECT_EQ(s.signatures, (std::vector<std::string>{"serving_default"}));
  EXPECT_EQ(s.metadata, (std::vector<std::string>{"min_runtime_version"}));
  EXPECT_EQ(s.external_buffers, 0u);
}

TEST(Tflite, BuffersPastTheFlatbufferAreFoundByOffset) {
  const Report r = check("external.tflite");
  EXPECT_TRUE(r.valid) << errors_of(r);
  EXPECT_EQ(tfl(r).external_buffers, 4u);
  EXPECT_EQ(tfl(r).tensors[1].bytes, 12u);
  const Report past = check("external_past_end.tflite");
  EXPECT_EQ(errors_of(past), "TFL.buffer TFL.buffer TFL.buffer TFL.buffer");
  EXPECT_TRUE(mentions(past, "TFL.buffer", "past the end of the file"));
}

TEST(Tflite, ATensorWhoseBufferIsNotItsSizeIsTflBuffer) {
  const Report r = check("buffer_size_mismatch.tflite");
  EXPECT_EQ(errors_of(r), "TFL.buffer");
  EXPECT_TRUE(mentions(r, "TFL.buffer", "needs 12 bytes, but its buffer 1 holds 11"));
  const Report past = check("buffer_index_past.tflite");
  EXPECT_EQ(errors_of(past), "TFL.buffer");
  EXPECT_TRUE(mentions(past, "TFL.buffer", "names buffer 99, past the model's 9 buffers"));
  EXPECT_TRUE(check("sparse.tflite").valid);  // a sparse tensor's buffer holds its non-zero values only
}

TEST(Tflite, IndicesPastTheirListsAreTflOperator) {
  const Report op = check("opcode_past.tflite");
  EXPECT_EQ(errors_of(op), "TFL.operator");
  EXPECT_TRUE(mentions(op, "TFL.operator", "opcode index 7, past the model's 2 operator codes"));
  const Report tensor = check("tensor_index_past.tflite");
  EXPECT_EQ(errors_of(tensor), "TFL.operator");
  EXPECT_TRUE(mentions(tensor, "TFL.operator", "names tensor 50"));
}

TEST(Tflite, AModelOfAnotherVersionOrTypeIsTflModel) {
  EXPECT_EQ(errors_of(check("version_2.tflite")), "TFL.model");
  const Report type = check("bad_type.tflite");
  EXPECT_EQ(errors_of(type), "TFL.model");
  EXPECT_TRUE(mentions(type, "TFL.model", "has type 42"));
}

TEST(Tflite, CustomAndFlexOps) {
  const Report custom = check("custom_op.tflite");
  EXPECT_TRUE(custom.valid);
  EXPECT_EQ(warnings_of(custom), "TFL.custom-op");
  EXPECT_TRUE(mentions(custom, "TFL.custom-op", "\"MyCustomOp\""));
  EXPECT_TRUE(tfl(custom).operator_codes[2].custom);
  const Report flex = check("flex_add.tflite");
  EXPECT_TRUE(flex.valid);
  EXPECT_EQ(warnings_of(flex), "TFL.flex");
  for (const char* name : {"flex_read_file.tflite", "flex_write_file.tflite"}) {
    const Report r = check(name);
    EXPECT_EQ(errors_of(r), "TFL.flex-dangerous") << name;
    EXPECT_EQ(warnings_of(r), "") << name;
  }
  EXPECT_TRUE(mentions(check("flex_read_file.tflite"), "TFL.flex-dangerous", "ReadFile"));
}

TEST(Tflite, WhatTheFlatbufferVerifierRefusesIsTflFlatbuffer) {
  for (const char* name : {"offset_out_of_range.tflite", "vtable_out_of_range.tflite", "vector_length_past_end.tflite",
                           "string_no_nul.tflite", "truncated.tflite"}) {
    SCOPED_TRACE(name);
    EXPECT_EQ(errors_of(check(name)), "TFL.flatbuffer");
  }
  EXPECT_TRUE(mentions(check("vtable_out_of_range.tflite"), "TFL.flatbuffer", "outside the buffer"));
  EXPECT_TRUE(mentions(check("string_no_nul.tflite"), "TFL.flatbuffer", "does not end in a NUL byte"));
  EXPECT_TRUE(mentions(check("vector_length_past_end.tflite"), "TFL.flatbuffer", "the file ends at byte 1200"));
}

TEST(Tflite, NestingAndTableCountAreBounded) {
  // schema.fbs nests at most six tables (Model, SubGraph, Tensor, SparsityParameters,
  // DimensionMetadata, Int32Vector): the bound is met with a smaller limit.
  Limits shallow;
  shallow.tflite.max_depth = 5;
  EXPECT_TRUE(check("sparse.tflite").valid);
  EXPECT_EQ(errors_of(check("sparse.tflite", shallow)), "TFL.flatbuffer");
  EXPECT_TRUE(mentions(check("sparse.tflite", shallow), "TFL.flatbuffer", "nested 6 tables deep"));
  Limits few;
  few.tflite.max_tables = 20;
  EXPECT_EQ(errors_of(check("model.tflite", few)), "TFL.flatbuffer");
  EXPECT_TRUE(mentions(check("model.tflite", few), "TFL.flatbuffer", "more than 20 tables"));
}

TEST(Tflite, MisalignedAndZeroOffsetsAreRefused) {
  std::string bytes = fixture("model.tflite");
  std::string zero = bytes;
  zero[0] = zero[1] = zero[2] = zero[3] = 0;
  EXPECT_EQ(errors_of(check_detected("z.tflite", zero)), "TFL.flatbuffer");
  std::string odd = bytes;
  odd[0] = static_cast<char>(odd[0] + 2);  // the Model two bytes on: not 4-aligned
  EXPECT_EQ(errors_of(check_detected("o.tflite", odd)), "TFL.flatbuffer");
  std::string id = bytes;
  id[7] = '4';
  const Report r = tensorgate::validate_whole(*tensorgate::make_tflite_validator(), id);
  EXPECT_EQ(errors_of(r), "TFL.flatbuffer");
}

TEST(Tflite, TensorDataIsSkippedNotKept) {
  std::uint64_t skipped = 0;
  const std::string bytes = fixture("model.tflite");
  // Fed 4 bytes at a time: each data vector's length ends a piece, and its bytes are offered.
  const Report r = tgtest::skipping_runs([] { return tensorgate::make_tflite_validator(); }, bytes, true, 4, &skipped);
  EXPECT_TRUE(r.valid);
  // The metadata's 16 bytes, the addend's and the bias' 12; the weights, last in the file, are
  // after the last read: bytes_wanted() is 0 there and a face skips to the end.
  EXPECT_EQ(skipped, 16u + 12 + 12);
  auto v = tensorgate::make_tflite_validator();
  v->feed(std::string_view(bytes).substr(0, bytes.size() - 12));
  EXPECT_EQ(v->bytes_wanted(), 0u);
}

TEST(Tflite, TheFlatbufferKeptIsBounded) {
  Limits small;
  small.tflite.max_flatbuffer_bytes = 256;
  const Report r = check("model.tflite", small);
  ASSERT_TRUE(r.aborted);
  EXPECT_EQ(r.aborted->limit, "tflite-flatbuffer-bytes");
  EXPECT_FALSE(r.valid);
}

TEST(Tflite, VectorsSharedPastTheFileAreNotReadOverAndOver) {
  // 3,000 offsets to one tensor of 3,000 dimensions: 9,000,000 dimensions to read from 24 KB.
  const Report r = check("shared_vectors.tflite");
  ASSERT_TRUE(r.aborted);
  EXPECT_EQ(r.aborted->limit, "tflite-shared-vectors");
  EXPECT_FALSE(r.valid);
}

TEST(Tflite, DetectedByContentAndName) {
  EXPECT_EQ(tensorgate::make_validator(tensorgate::FormatChoice::auto_detect, "x.bin", {}) != nullptr, true);
  const Report r = check_detected("renamed.bin", fixture("model.tflite"));
  EXPECT_EQ(r.format, tensorgate::Format::tflite);
}

}  // namespace
