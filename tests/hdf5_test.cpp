// HDF5 files (core/src/hdf5, family KR): legacy Keras .h5 models and other HDF5 files as h5py
// writes them (tests/data/hdf5/make_fixtures.py), through format detection as `tensorgate check
// model.h5` sees them, in any chunks and with every offered run skipped. Each rule both ways, the
// aborted answers, the limits, and hand-corrupted structures.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "test_data.hpp"
#include "stream_check.hpp"
#include "tensorgate/detect.hpp"
#include "tensorgate/hdf5.hpp"
#include "tensorgate/validator.hpp"

namespace {

using tensorgate::Hdf5Summary;
using tensorgate::Limits;
using tensorgate::Report;
using tgtest::check_detected;
using tgtest::errors_of;
using tgtest::message_of;
using tgtest::warnings_of;

std::string fixture(const std::string& name) {
  return tgtest::test_data("hdf5/" + name);
}

const Hdf5Summary& h5(const Report& r) {
  static const Hdf5Summary none;
  const Hdf5Summary* s = r.summary.get<Hdf5Summary>();
  EXPECT_NE(s, nullptr);
  return s ? *s : none;
}

Report check(const std::string& name, const Limits& limits = {}) {
  return check_detected(name, fixture(name), limits);
}

std::string put_le(std::string bytes, std::size_t at, std::uint64_t v, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) bytes[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
  return bytes;
}

std::uint64_t count_of(const Hdf5Summary& s, const std::string& class_name) {
  for (const auto& c : s.model->classes)
    if (c.class_name == class_name) return c.count;
  return 0;
}

TEST(Hdf5, BenignKerasModelsOfEveryLayoutPass) {
  for (const char* name : {"keras2_dense.h5", "keras2_fixed.h5", "keras3_dense.h5", "latest.h5", "userblock.h5",
                           "userblock_2048.h5", "keras2_no_training.h5"}) {
    SCOPED_TRACE(name);
    const Report r = check(name);
    EXPECT_EQ(r.format, tensorgate::Format::hdf5);
    EXPECT_TRUE(r.valid) << errors_of(r);
    EXPECT_EQ(warnings_of(r), "");
    const Hdf5Summary& s = h5(r);
    EXPECT_TRUE(s.keras);
    ASSERT_TRUE(s.model);
    EXPECT_EQ(s.model->model_class, "Sequential");
    EXPECT_EQ(count_of(s, "Dense"), 2u);
    EXPECT_EQ(s.model->custom_objects, 0u);  // a legacy config names no module: not custom
    EXPECT_EQ(s.backend, "tensorflow");
    EXPECT_EQ(s.training_config, std::string(name) != "keras2_no_training.h5");
  }
  EXPECT_EQ(h5(check("keras3_dense.h5")).keras_version, "3.3.3");
  EXPECT_EQ(h5(check("keras2_fixed.h5")).keras_version, "2.4.0");
  EXPECT_EQ(h5(check("keras2_fixed.h5")).attributes[2].type, "string");
  EXPECT_EQ(h5(check("keras3_dense.h5")).attributes[0].type, "vlen-string");
  const Report latest_report = check("latest.h5");  // the summary lives in its report
  const Hdf5Summary& latest = h5(latest_report);
  EXPECT_EQ(latest.superblock_version, 3u);
  EXPECT_EQ(latest.root_header_version, 2u);
  EXPECT_EQ(h5(check("userblock.h5")).user_block, 512u);
  EXPECT_EQ(h5(check("userblock_2048.h5")).user_block, 2048u);
}

TEST(Hdf5, AFileOfNoKerasModelListsItsAttributes) {
  const Report r = check("plain.h5");
  EXPECT_TRUE(r.valid) << errors_of(r);
  EXPECT_TRUE(r.findings.empty());
  const Hdf5Summary& s = h5(r);
  EXPECT_FALSE(s.keras);
  ASSERT_EQ(s.attributes.size(), 6u);
  const auto row = [&](const std::string& name) {
    for (const auto& a : s.attributes)
      if (a.name == name) return a.type + " " + a.preview;
    return std::string("missing");
  };
  EXPECT_EQ(row("title"), "vlen-string measurements");
  EXPECT_EQ(row("count"), "int32 42");
  EXPECT_EQ(row("scale"), "float64 0.5");
  EXPECT_EQ(row("ids"), "int64 [0, 1, 2, 3, 4]");
  EXPECT_EQ(row("flag"), "uint8 1");
  EXPECT_EQ(row("raw"), "vlen-string fixed");
  // Keras 2's save_weights (a hub's tf_model.h5): the layers' names, no model_config, no judgement.
  const Report weights = check("weights_only.h5");
  EXPECT_TRUE(weights.valid);
  EXPECT_TRUE(weights.findings.empty());
  EXPECT_FALSE(h5(weights).keras);
  ASSERT_EQ(h5(weights).attributes.size(), 3u);
  EXPECT_EQ(h5(weights).attributes[0].name, "layer_names");
  EXPECT_EQ(h5(weights).attributes[0].preview, "[dense, ...]");
  EXPECT_EQ(h5(weights).attributes[0].bytes, 32u);
  EXPECT_EQ(h5(weights).attributes[1].bytes, 10u);
  EXPECT_TRUE(check("empty_root.h5").valid);
  EXPECT_TRUE(h5(check("empty_root.h5")).attributes.empty());
}

TEST(Hdf5, ALegacyLambdaIsKrLambda) {
  for (const char* name : {"lambda.h5", "latest_keras3.h5"}) {
    const Report r = check(name);
    EXPECT_EQ(errors_of(r), "KR.lambda") << name;
    EXPECT_NE(message_of(r, "KR.lambda").find("attribute \"model_config\""), std::string::npos);
  }
}

TEST(Hdf5, ADeniedFunctionIsADangerousObject) {
  const Report r = check("os_system.h5");
  EXPECT_EQ(errors_of(r), "KR.dangerous-object");
  EXPECT_NE(message_of(r, "KR.dangerous-object").find("os.system"), std::string::npos);
}

TEST(Hdf5, CustomObjectsWarn) {
  for (const char* name : {"custom_object.h5", "custom_module.h5"}) {
    const Report r = check(name);
    EXPECT_TRUE(r.valid) << name;
    EXPECT_EQ(warnings_of(r), "KR.custom-object") << name;
    EXPECT_EQ(h5(r).model->custom_objects, 1u);
  }
  EXPECT_NE(message_of(check("custom_object.h5"), "KR.custom-object").find("MyPackage"), std::string::npos);
}

TEST(Hdf5, AModelConfigThatIsNoKerasConfigIsKrConfig) {
  EXPECT_EQ(errors_of(check("config_not_json.h5")), "KR.config");
  EXPECT_NE(message_of(check("config_not_json.h5"), "KR.config").find("model_config is not JSON"), std::string::npos);
  EXPECT_EQ(errors_of(check("config_no_class.h5")), "KR.config");
  // Not a string at all.
  std::string bytes = fixture("keras2_fixed.h5");
  const std::size_t at = bytes.find("model_config");
  ASSERT_NE(at, std::string::npos);
  bytes[at + 16] = 0x10;  // the datatype's class and version: a version 1 integer
  const Report r = check_detected("m.h5", bytes);
  EXPECT_EQ(errors_of(r), "KR.config") << message_of(r, "KR.hdf5");
}

TEST(Hdf5, DenseAttributeStorageIsAborted) {
  for (const char* name : {"dense_attrs.h5", "dense_large_attr.h5"}) {
    const Report r = check(name);
    EXPECT_FALSE(r.valid) << name;
    ASSERT_TRUE(r.aborted) << name;
    EXPECT_EQ(r.aborted->limit, "hdf5-dense-attributes");
    EXPECT_NE(r.aborted->message.find("dense storage"), std::string::npos);
    EXPECT_TRUE(r.findings.empty());
  }
}

TEST(Hdf5, MalformedStructuresAreKrHdf5) {
  const std::pair<const char*, const char*> cases[] = {
      {"bad_superblock_version.h5", "superblock version 7"},
      {"bad_offset_size.h5", "size of offsets is 3"},
      {"root_past_end.h5", "the file ends at byte 14440, before the end of the root group's object header"},
      {"root_undefined.h5", "no address for the root group's object header"},
      {"bad_header_version.h5", "object header of version 5"},
      {"continuation_loop.h5", "the header would loop"},
      {"continuation_past_end.h5", "before the end of a continuation block"},
      {"message_past_header.h5", "past its chunk's end"},
      {"truncated_superblock.h5", "before the end of the superblock"},
      {"truncated_header.h5", "before the end of a continuation block"},
      {"truncated_half.h5", "end-of-file address its superblock gives"},
  };
  for (const auto& [name, words] : cases) {
    const Report r = check(name);
    EXPECT_EQ(errors_of(r), "KR.hdf5") << name;
    EXPECT_NE(message_of(r, "KR.hdf5").find(words), std::string::npos) << name << ": " << message_of(r, "KR.hdf5");
  }
}

TEST(Hdf5, EveryTruncationOfABenignFileIsInvalid) {
  const std::string whole = fixture("keras3_dense.h5");
  for (std::size_t cut = 1; cut < whole.size(); cut += 13) {
    auto v = tensorgate::make_hdf5_validator();
    const Report r = tensorgate::validate_whole(*v, std::string_view(whole).substr(0, cut));
    EXPECT_EQ(errors_of(r), "KR.hdf5") << cut;
  }
}

TEST(Hdf5, Version2ChecksumsAreChecked) {
  std::string bytes = fixture("latest.h5");
  bytes[20] ^= 1;  // inside the superblock (48 bytes)
  EXPECT_NE(message_of(check_detected("m.h5", bytes), "KR.hdf5").find("superblock's checksum"), std::string::npos);
  bytes = fixture("latest.h5");
  const std::size_t at = bytes.find("OHDR");
  bytes[at + 40] ^= 1;
  EXPECT_NE(message_of(check_detected("m.h5", bytes), "KR.hdf5").find("checksum does not match"), std::string::npos);
}

// keras2_dense.h5: superblock v0, the root object header at 96 (its continuation message at 112,
// its address at 120, its length at 128), the continuation block at 800, its first attribute message at 824.
TEST(Hdf5, ARegionBehindTheBytesPassedIsAborted) {
  // A block of 64 bytes at byte 8: inside the superblock, passed and not kept.
  const std::string bytes = put_le(put_le(fixture("keras2_dense.h5"), 120, 8, 8), 128, 64, 8);
  const Report r = check_detected("m.h5", bytes);
  ASSERT_TRUE(r.aborted);
  EXPECT_EQ(r.aborted->limit, "hdf5-backward");
  EXPECT_FALSE(r.valid);
}

TEST(Hdf5, ASharedAttributeMessageIsAborted) {
  std::string bytes = fixture("keras2_dense.h5");
  ASSERT_EQ(bytes[824], 0x0c);
  bytes[828] = 0x02;
  const Report r = check_detected("m.h5", bytes);
  ASSERT_TRUE(r.aborted);
  EXPECT_EQ(r.aborted->limit, "hdf5-unsupported");
}

TEST(Hdf5, LimitsAbortOrCut) {
  const auto aborted = [](const char* name, const Limits& l) {
    const Report r = check(name, l);
    return r.aborted ? r.aborted->limit : "not aborted: " + errors_of(r);
  };
  Limits l;
  l.hdf5.max_attributes = 3;
  EXPECT_EQ(aborted("keras2_dense.h5", l), "hdf5-attributes");
  l = {};
  l.hdf5.max_continuations = 1;
  EXPECT_EQ(aborted("many_attrs.h5", l), "hdf5-continuations");
  EXPECT_TRUE(check("many_attrs.h5").valid);
  l = {};
  l.hdf5.max_header_messages = 4;
  EXPECT_EQ(aborted("keras2_dense.h5", l), "hdf5-header-messages");
  l = {};
  l.hdf5.max_metadata_bytes = 2048;
  EXPECT_EQ(aborted("keras2_dense.h5", l), "hdf5-metadata-bytes");
  l = {};
  l.hdf5.max_attribute_bytes = 100;
  EXPECT_EQ(aborted("keras3_dense.h5", l), "hdf5-attribute-bytes");
  l = {};
  l.hdf5.max_user_block = 1024;
  EXPECT_EQ(aborted("userblock_2048.h5", l), "hdf5-user-block");
  EXPECT_TRUE(check("userblock.h5", l).valid);
  l = {};
  l.hdf5.max_listed_attributes = 1;
  const Report r = check("keras2_dense.h5", l);
  EXPECT_TRUE(r.valid);
  EXPECT_EQ(h5(r).attributes.size(), 1u);
  EXPECT_EQ(h5(r).attributes_not_listed, 3u);
  EXPECT_EQ(h5(r).model->model_class, "Sequential");  // judged though not listed
}

TEST(Hdf5, TheWeightsAreSkippedAndOneByteChunksGiveTheSameReport) {
  const std::string bytes = fixture("keras2_dense.h5");
  std::uint64_t skipped = 0;
  const auto make = [] { return tensorgate::make_hdf5_validator(); };
  const Report runs = tgtest::skipping_runs(make, bytes, true, 64, &skipped);
  EXPECT_GT(skipped, 512u);  // between the header's continuation block and the heap collection
  std::vector<std::size_t> every;
  for (std::size_t at = 1; at < bytes.size(); ++at) every.push_back(at);
  EXPECT_EQ(tgtest::render(tgtest::feed_split(make, bytes, every, false)), tgtest::render(runs));
  // Once the root's attributes are read nothing more is wanted: the rest is only counted.
  auto v = make();
  v->set_total_size(bytes.size());
  v->feed(std::string_view(bytes).substr(0, 6144));
  EXPECT_EQ(v->bytes_wanted(), 0u);
}

TEST(Hdf5, DetectionFindsTheSignatureAfterAUserBlock) {
  std::string bytes(2048, '\0');
  bytes += fixture("keras2_dense.h5").substr(0, 8);
  auto v = tensorgate::make_validator(tensorgate::FormatChoice::auto_detect, "x", {});
  EXPECT_EQ(tensorgate::validate_whole(*v, bytes).format, tensorgate::Format::hdf5);
  const Report other = check_detected("model.h5", std::string("GGUF") + std::string(60, '\0'));
  EXPECT_EQ(warnings_of(other).substr(0, 12), "FK.extension");
}

}  // namespace
