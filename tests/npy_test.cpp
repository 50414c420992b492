// NumPy .npy files on their own (FK.npy-header, FK.npy-data, object arrays through the PK
// rules), each in both verdicts, every split giving the same report.
#include <gtest/gtest.h>

#include "pickle_builder.hpp"
#include "stream_check.hpp"
#include "tensorgate/npy.hpp"
#include "zip_builder.hpp"

using tensorgate::NpySummary;

namespace {

using namespace tgtest;

tensorgate::Report npy_report(std::string_view bytes) {
  return check_stream([] { return tensorgate::make_npy_validator(); }, bytes);
}

// A .npy file with the header dict as given (padded to 64 bytes) and `data` after it.
std::string npy_with_dict(std::string dict, const std::string& data, char major = 1) {
  while ((10 + dict.size() + 1) % 64) dict += ' ';
  dict += '\n';
  std::string out = std::string("\x93NUMPY", 6) + major + '\0';
  out += static_cast<char>(dict.size() & 0xff);
  out += static_cast<char>(dict.size() >> 8);
  return out + dict + data;
}

TEST(Npy, ValidArrayAndItsSummary) {
  const auto r = npy_report(npy_file("<f4", {2, 3}, std::string(24, '\0')));
  ASSERT_TRUE(r.valid) << errors_of(r);
  EXPECT_EQ(r.format, tensorgate::Format::npy);
  ASSERT_TRUE(r.summary.get<NpySummary>() != nullptr);
  EXPECT_EQ(r.summary.get<NpySummary>()->descr, "<f4");
  EXPECT_EQ(r.summary.get<NpySummary>()->shape, (std::vector<std::uint64_t>{2, 3}));
  EXPECT_EQ(r.summary.get<NpySummary>()->data_bytes, 24u);
}

TEST(Npy, MalformedHeaders) {
  EXPECT_EQ(errors_of(npy_report(npy_with_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }",
                                               std::string(8, '\0'), 4))),
            "FK.npy-header");  // version 4.0
  EXPECT_EQ(errors_of(npy_report(npy_with_dict("{'descr': '<f4', 'shape': (2,), }", std::string(8, '\0')))),
            "FK.npy-header");  // no fortran_order
  EXPECT_EQ(errors_of(npy_report(npy_with_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }", ""))),
            "FK.npy-header");  // a negative dimension
  EXPECT_EQ(errors_of(npy_report(npy_with_dict("__import__('os').system('id')", ""))), "FK.npy-header");
  const std::string good = npy_file("<f4", {2}, std::string(8, '\0'));
  EXPECT_EQ(errors_of(npy_report(good.substr(0, 30))), "FK.npy-header");  // ends inside the header
  std::string huge = good;
  huge[8] = '\x20';  // header length 0x4e20 = 20,000: above NumPy's 10,000
  huge[9] = '\x4e';
  EXPECT_EQ(errors_of(npy_report(huge)), "FK.npy-header");
}

// A summary says what the header says: none when it was not read (the JSON report's npy summary
// has a version of 1.0, 2.0 or 3.0, a dtype and a shape, or is null).
TEST(Npy, NoSummaryBeforeTheHeaderIsRead) {
  const std::string good = npy_file("<f4", {2}, std::string(8, '\0'));
  std::string no_magic = good;
  no_magic[1] = 'X';
  std::string version = good;
  version[6] = 9;
  for (const std::string& in : {no_magic, version, good.substr(0, 30), std::string(64, '\0')}) {
    const auto r = npy_report(in);
    EXPECT_EQ(errors_of(r), "FK.npy-header");
    EXPECT_EQ(r.summary.get<NpySummary>(), nullptr) << r.summary.get<NpySummary>()->major << "." << r.summary.get<NpySummary>()->minor;
  }
  const auto r = npy_report(npy_file("<f4", {2}, std::string(4, '\0')));  // read, then short data
  EXPECT_EQ(errors_of(r), "FK.npy-data");
  ASSERT_TRUE(r.summary.get<NpySummary>() != nullptr);
  EXPECT_EQ(r.summary.get<NpySummary>()->major, 1u);
  EXPECT_EQ(r.summary.get<NpySummary>()->descr, "<f4");
}

TEST(Npy, DataOfAnotherLength) {
  EXPECT_EQ(errors_of(npy_report(npy_file("<f4", {2, 3}, std::string(20, '\0')))), "FK.npy-data");
  EXPECT_EQ(errors_of(npy_report(npy_file("<f4", {2, 3}, std::string(28, '\0')))), "FK.npy-data");
  EXPECT_EQ(errors_of(npy_report(npy_file("<f4", {2, 3}, std::string(24, '\0')))), "");
}

TEST(Npy, ObjectArraysHoldAPickle) {
  const auto bad = npy_report(npy_file("|O", {1}, PickleBuilder().proto(3).call("os", "system", "id").stop().bytes()));
  EXPECT_EQ(errors_of(bad), "PK.dangerous-global");
  ASSERT_TRUE(bad.summary.get<NpySummary>() != nullptr);
  EXPECT_TRUE(bad.summary.get<NpySummary>()->object);
  const auto good = npy_report(npy_file("|O", {1}, PickleBuilder().proto(3).op(']').stop().bytes()));
  EXPECT_EQ(errors_of(good), "");
}

// numpy.load unpickles the data whenever dtype.hasobject: an object field anywhere in a
// structure, an object subarray, a nested structure, a titled field.
TEST(Npy, StructuresWithAnObjectFieldHoldAPickle) {
  const std::string payload = PickleBuilder().proto(3).call("os", "system", "id").stop().bytes();
  const std::string benign = PickleBuilder().proto(3).op(']').stop().bytes();
  const std::vector<std::string> descrs = {
      "[('a', '|O')]",
      "[('x', '<f4'), ('a', '|O', (3,))]",
      "[('x', '<f4'), ('n', [('i', '<i8'), ('o', 'O')])]",
      "('O', (2,))",
      "[(('a title', 'a'), '|O8')]",
      "[['a', 'object']]",
  };
  for (const std::string& d : descrs) {
    const std::string dict = "{'descr': " + d + ", 'fortran_order': False, 'shape': (1,), }";
    const auto bad = npy_report(npy_with_dict(dict, payload));
    EXPECT_EQ(errors_of(bad), "PK.dangerous-global") << d;
    ASSERT_TRUE(bad.summary.get<NpySummary>() != nullptr) << d;
    EXPECT_TRUE(bad.summary.get<NpySummary>()->object) << d;
    EXPECT_EQ(errors_of(npy_report(npy_with_dict(dict, benign))), "") << d;
  }
  // Names, titles and shapes are not dtypes: a field named 'O' holds floats, and its bytes are data.
  for (const std::string d : {"[('O', '<f4')]", "[(('O', 'b'), '<f4', (2,))]", "('<f4', (2,))"}) {
    const std::string dict = "{'descr': " + d + ", 'fortran_order': False, 'shape': (1,), }";
    const auto r = npy_report(npy_with_dict(dict, std::string(8, '\x01')));
    EXPECT_EQ(errors_of(r), "") << d;
    ASSERT_TRUE(r.summary.get<NpySummary>() != nullptr) << d;
    EXPECT_FALSE(r.summary.get<NpySummary>()->object) << d;
  }
  // Brackets that do not pair are a malformed header, not a structure.
  EXPECT_EQ(errors_of(npy_report(npy_with_dict("{'descr': [('a', '|O'), 'fortran_order': False, 'shape': (1,), }", payload))),
            "FK.npy-header");
  EXPECT_EQ(errors_of(npy_report(npy_with_dict("{'descr': [('a', '|O']), 'fortran_order': False, 'shape': (1,), }", payload))),
            "FK.npy-header");
}

TEST(Npy, DetectedByContentWhateverTheName) {
  const auto r = check_detected("weights.bin", npy_file("<i8", {1}, std::string(8, '\0')));
  EXPECT_EQ(r.format, tensorgate::Format::npy);
  EXPECT_EQ(warnings_of(r), "FK.extension");
}

}  // namespace
