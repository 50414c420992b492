// joblib.dump files through the pickle scanner (core/src/pickle/pk_joblib.cpp): each array's
// raw bytes follow its NumpyArrayWrapper outside the opcodes and are skipped by its shape and
// dtype, never read as opcodes, in any chunks and with the bytes sought over; an object array's
// own pickle is scanned. Files from the real writer (tests/data/joblib/make_fixtures.py).
#include <gtest/gtest.h>

#include <string>

#include "test_data.hpp"
#include "stream_check.hpp"
#include "zip_builder.hpp"
#include "tensorgate/pickle.hpp"
#include "tensorgate/validator.hpp"

namespace {

using tensorgate::PickleSummary;
using tensorgate::Report;
using tgtest::check_detected;
using tgtest::check_pickle;
using tgtest::errors_of;
using tgtest::message_of;
using tgtest::warnings_of;

std::string fixture(const std::string& name) {
  return tgtest::test_data("joblib/" + name);
}

const PickleSummary& summary(const Report& r) { return *r.summary.get<PickleSummary>(); }

const tensorgate::PickleTensor* tensor(const Report& r, std::string_view name) {
  for (const auto& t : summary(r).tensors)
    if (t.name == name) return &t;
  return nullptr;
}

TEST(Joblib, ArraysOfEveryPlainDtypeAreSkippedByShapeAndDtype) {
  const std::string bytes = fixture("arrays.joblib");
  const Report r = check_pickle(bytes);
  EXPECT_TRUE(r.valid) << errors_of(r);
  EXPECT_EQ(errors_of(r), "");
  EXPECT_EQ(warnings_of(r), "");
  EXPECT_EQ(summary(r).joblib_arrays, 10u);
  // float32 x 1000, int64 x 7, bool x 3, int16 x 12, complex64 x 2, <U3 x 3, |S2 x 2,
  // datetime64 x 1, float64 x 0, float16 x 1.
  EXPECT_EQ(summary(r).joblib_array_bytes, 4000u + 56 + 3 + 24 + 16 + 36 + 4 + 8 + 0 + 2);
  ASSERT_NE(tensor(r, "w"), nullptr);
  EXPECT_EQ(tensor(r, "w")->dtype, "F32");
  EXPECT_EQ(tensor(r, "w")->shape, std::vector<std::uint64_t>{1000});
  ASSERT_NE(tensor(r, "grid"), nullptr);
  EXPECT_EQ(tensor(r, "grid")->dtype, "I16");
  EXPECT_EQ(tensor(r, "grid")->shape, (std::vector<std::uint64_t>{3, 4}));
  ASSERT_NE(tensor(r, "names"), nullptr);
  EXPECT_EQ(tensor(r, "names")->dtype, "U3");
  EXPECT_EQ(tensor(r, "z")->dtype, "C64");
  EXPECT_EQ(tensor(r, "mask")->dtype, "BOOL");
  EXPECT_EQ(tensor(r, "empty")->shape, (std::vector<std::uint64_t>{0, 3}));
  EXPECT_EQ(tensor(r, "scalar")->shape, std::vector<std::uint64_t>{});
  // The same through format detection, as `tensorgate check model.joblib` sees it.
  const Report d = check_detected("model.joblib", bytes);
  EXPECT_TRUE(d.valid) << errors_of(d);
  EXPECT_EQ(warnings_of(d), "");
}

TEST(Joblib, ProtocolTwoHasNoFramesAndTheSameLayout) {
  const Report r = check_pickle(fixture("protocol2.joblib"));
  EXPECT_TRUE(r.valid) << errors_of(r);
  EXPECT_EQ(summary(r).protocol, 2u);
  EXPECT_EQ(summary(r).joblib_arrays, 2u);
  EXPECT_EQ(summary(r).joblib_array_bytes, 43u);
}

TEST(Joblib, ALibraryClassIsAnUnknownGlobalAndItsArraysAreRead) {
  const Report r = check_pickle(fixture("estimator.joblib"));
  EXPECT_TRUE(r.valid) << errors_of(r);
  EXPECT_EQ(warnings_of(r), "PK.unknown-global");
  EXPECT_NE(message_of(r, "PK.unknown-global").find("estimators.Estimator"), std::string::npos);
  EXPECT_EQ(summary(r).joblib_arrays, 3u);
}

TEST(Joblib, AnObjectArraysOwnPickleIsScanned) {
  const Report benign = check_pickle(fixture("object_array.joblib"));
  EXPECT_TRUE(benign.valid) << errors_of(benign);
  EXPECT_EQ(summary(benign).joblib_arrays, 2u);
  const Report r = check_pickle(fixture("object_array_payload.joblib"));
  EXPECT_EQ(errors_of(r), "PK.dangerous-global");
  EXPECT_NE(message_of(r, "PK.dangerous-global").find("os.system"), std::string::npos);
}

// A shape of no elements: joblib reads no array bytes and runs what follows as opcodes.
TEST(Joblib, OpcodesAfterAnArrayOfNoBytesAreRead) {
  const Report r = check_pickle(fixture("hidden_in_array_bytes.joblib"));
  EXPECT_EQ(errors_of(r), "PK.dangerous-global");
  EXPECT_NE(message_of(r, "PK.dangerous-global").find("os.system"), std::string::npos);
}

// A wrapper made by a factory given the class (copyreg._reconstructor), with no alignment pad:
// joblib's isinstance check reads its array's bytes all the same, so the scanner skips them and
// reads the os.system call joblib runs next (parsed as opcodes, those bytes would have been a
// BINBYTES hiding it).
TEST(Joblib, AWrapperMadeByAFactoryIsStillAWrapper) {
  const Report r = check_pickle(fixture("wrapper_by_factory.joblib"));
  EXPECT_EQ(errors_of(r), "PK.dangerous-global");
  EXPECT_NE(message_of(r, "PK.dangerous-global").find("os.system"), std::string::npos);
  EXPECT_EQ(summary(r).joblib_arrays, 1u);
}

// The same opcodes within the array's declared bytes: joblib never runs them.
TEST(Joblib, OpcodesWithinAnArraysBytesAreNotRead) {
  const Report r = check_pickle(fixture("opcodes_as_array_bytes.joblib"));
  EXPECT_TRUE(r.valid) << errors_of(r);
  EXPECT_EQ(summary(r).joblib_array_bytes, 18u);
}

// Inside a zip (a torch.save archive's data.pkl), torch.load's unpickler never reads array bytes:
// what follows the wrapper's BUILD is opcodes there, and is read as such. The file that passes by
// itself (its array bytes skipped) fails at its pad byte, which is no opcode, as torch.load would.
TEST(Joblib, InsideAnArchiveTheWrapperIsJustAnObject) {
  const std::string pickle = fixture("opcodes_as_array_bytes.joblib");
  EXPECT_TRUE(check_pickle(pickle).valid);
  const Report r = check_detected("model.pt", tgtest::torch_archive({}, "archive", pickle));
  EXPECT_EQ(errors_of(r), "PK.unknown-opcode");
}

TEST(Joblib, AnArrayPastTheEndIsTruncated) {
  const Report r = check_pickle(fixture("truncated_array.joblib"));
  EXPECT_EQ(errors_of(r), "PK.truncated");
  EXPECT_NE(message_of(r, "PK.truncated").find("joblib array"), std::string::npos);
}

TEST(Joblib, AStructuredDtypeCannotBePlaced) {
  const Report r = check_pickle(fixture("structured.joblib"));
  EXPECT_EQ(errors_of(r), "PK.joblib-array");
  EXPECT_NE(message_of(r, "PK.joblib-array").find("structured"), std::string::npos);
}

// The wrapper's BUILD with bytes of its frame after it: joblib reads the array from after the
// frame, so the scanner cannot say where the opcodes go on.
TEST(Joblib, AWrapperBuiltInsideAFrameCannotBePlaced) {
  std::string bytes = fixture("protocol2.joblib");
  // Protocol 2 has no frames: put the whole pickle in one (PROTO 4, FRAME of the rest).
  const std::string body = bytes.substr(2);
  std::string framed = std::string("\x80\x04\x95", 3);
  for (int i = 0; i < 8; ++i) framed.push_back(static_cast<char>((body.size() >> (8 * i)) & 0xff));
  const Report r = check_pickle(framed + body);
  EXPECT_EQ(errors_of(r), "PK.joblib-array");
  EXPECT_NE(message_of(r, "PK.joblib-array").find("FRAME"), std::string::npos);
}

}  // namespace
