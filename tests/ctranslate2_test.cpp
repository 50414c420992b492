// CTranslate2 model.bin files (core/src/ctranslate2, family CTR), as CTranslate2's writer lays
// them out (tests/data/ctranslate2/make_fixtures.py): through format detection as `tensorgate
// check model.bin` sees them, or through the reader itself where detection refuses the file (a
// version the reader does not know), in any chunks and with every offered run skipped. Each rule
// both ways, the summary, the limits, and the detection of the other formats kept as it was.
#include <gtest/gtest.h>

#include <string>

#include "stream_check.hpp"
#include "tensorgate/ctranslate2.hpp"
#include "tensorgate/validator.hpp"
#include "test_data.hpp"

namespace {

using tensorgate::CTranslate2Summary;
using tensorgate::Limits;
using tensorgate::Report;
using tgtest::check_detected;
using tgtest::errors_of;
using tgtest::message_of;
using tgtest::warnings_of;

std::string fixture(const std::string& name) { return tgtest::test_data("ctranslate2/" + name); }

const CTranslate2Summary& ct(const Report& r) {
  static const CTranslate2Summary none;
  const CTranslate2Summary* s = r.summary.get<CTranslate2Summary>();
  EXPECT_NE(s, nullptr);
  return s ? *s : none;
}

// Through detection, every way of feeding it.
Report check(const std::string& name, const Limits& limits = {}) { return check_detected(name, fixture(name), limits); }

// Through the reader alone (`--input-format ctranslate2`), every way of feeding it.
Report read(std::string_view bytes, const Limits& limits = {}) {
  return tgtest::check_stream([limits] { return tensorgate::make_ctranslate2_validator(limits); }, bytes);
}

TEST(CTranslate2, ModelsOfEveryVersionPass) {
  for (const char* name : {"whisper_v6.bin", "whisper_v4.bin", "transformer_v3.bin", "transformer_v2.bin", "transformer_v1.bin"}) {
    SCOPED_TRACE(name);
    const Report r = check(name);
    EXPECT_EQ(r.format, tensorgate::Format::ctranslate2);
    EXPECT_TRUE(r.valid) << errors_of(r);
    EXPECT_EQ(warnings_of(r), "");
    EXPECT_EQ(r.bytes_seen, fixture(name).size());
  }
}

TEST(CTranslate2, TheSummarySaysWhatTheWriterWrote) {
  const Report r6 = check("whisper_v6.bin");
  const CTranslate2Summary& s = ct(r6);
  EXPECT_EQ(s.binary_version, 6u);
  EXPECT_EQ(s.spec_name, "WhisperSpec");
  EXPECT_EQ(s.spec_revision, 3u);
  EXPECT_EQ(s.variable_count, 8u);
  ASSERT_EQ(s.variables.size(), 8u);
  const auto& emb = s.variables[0];
  EXPECT_EQ(emb.name, "decoder/embeddings/weight");
  EXPECT_EQ(emb.dtype, "float16");
  EXPECT_EQ(emb.shape, (std::vector<std::uint64_t>{8, 4}));
  EXPECT_EQ(emb.bytes, 64u);
  // After the version, the spec name (2 + 12 bytes), the revision, the count and the record.
  EXPECT_EQ(emb.offset, 4u + 14 + 4 + 4 + 2 + 26 + 1 + 8 + 1 + 4);
  EXPECT_EQ(s.variables[1].dtype, "int8");
  EXPECT_EQ(s.variables[2].dtype, "float32");
  EXPECT_EQ(s.variables[3].shape, std::vector<std::uint64_t>{});  // a scalar
  EXPECT_EQ(s.variables[7].dtype, "int32");
  ASSERT_EQ(s.aliases.size(), 1u);
  EXPECT_EQ(s.aliases[0].name, "decoder/projection/weight");
  EXPECT_EQ(s.aliases[0].target, "decoder/embeddings/weight");
  EXPECT_EQ(s.parameters, 32u + 48 + 12 + 1 + 4 + 36 + 24 + 2);
  EXPECT_EQ(s.total_bytes, 64u + 48 + 48 + 1 + 16 + 72 + 96 + 8);

  const Report r1 = check("transformer_v1.bin");
  const CTranslate2Summary& v1 = ct(r1);
  EXPECT_EQ(v1.binary_version, 1u);
  EXPECT_EQ(v1.spec_name, "");
  EXPECT_EQ(v1.spec_revision, 1u);
  ASSERT_EQ(v1.variables.size(), 3u);
  EXPECT_EQ(v1.variables[1].dtype, "int16");  // item size 2, as the loader reads it
  EXPECT_EQ(v1.variables[1].bytes, 32u);
  EXPECT_EQ(v1.alias_count, 0u);
}

TEST(CTranslate2, ListsAreBoundedAndCounted) {
  Limits limits;
  limits.ctranslate2.max_listed_variables = 3;
  const Report r = check("whisper_v6.bin", limits);
  EXPECT_TRUE(r.valid) << errors_of(r);
  EXPECT_EQ(ct(r).variables.size(), 3u);
  EXPECT_EQ(ct(r).variables_not_listed, 5u);
  EXPECT_EQ(ct(r).parameters, 159u);  // counted whether listed or not
  limits.ctranslate2.max_listed_variables = 0;
  EXPECT_EQ(ct(check("whisper_v6.bin", limits)).aliases_not_listed, 1u);
}

TEST(CTranslate2, Version) {
  EXPECT_EQ(errors_of(read(fixture("whisper_v6.bin"))), "");
  EXPECT_EQ(errors_of(read(fixture("bad_version.bin"))), "CTR.version");
  EXPECT_EQ(errors_of(read(fixture("version_zero.bin"))), "CTR.version");
  EXPECT_NE(message_of(read(fixture("bad_version.bin")), "CTR.version").find("binary version 7"), std::string::npos);
}

TEST(CTranslate2, Header) {
  EXPECT_EQ(errors_of(check("transformer_v2.bin")), "");
  EXPECT_EQ(errors_of(read(fixture("empty_spec.bin"))), "CTR.header");
  EXPECT_EQ(errors_of(read(fixture("spec_unterminated.bin"))), "CTR.header");
  EXPECT_EQ(errors_of(check("too_many_variables.bin")), "CTR.header");
  Limits limits;
  limits.ctranslate2.max_variables = 8;
  EXPECT_EQ(errors_of(check("whisper_v6.bin", limits)), "");
  limits.ctranslate2.max_variables = 7;
  EXPECT_EQ(errors_of(check("whisper_v6.bin", limits)), "CTR.header");
  limits = {};
  limits.ctranslate2.max_aliases = 0;
  EXPECT_EQ(errors_of(check("whisper_v6.bin", limits)), "CTR.header");
  limits.ctranslate2.max_aliases = 1;
  EXPECT_EQ(errors_of(check("whisper_v6.bin", limits)), "");
}

TEST(CTranslate2, Variable) {
  for (const char* name : {"wrong_byte_count.bin", "rank9.bin", "long_name.bin", "bad_dtype.bin", "bad_item_size.bin",
                           "duplicate_name.bin", "empty_name_length.bin"}) {
    SCOPED_TRACE(name);
    const Report r = check(name);
    EXPECT_EQ(r.format, tensorgate::Format::ctranslate2);
    EXPECT_EQ(errors_of(r), "CTR.variable");
  }
  EXPECT_NE(message_of(check("wrong_byte_count.bin"), "CTR.variable").find("is 12 bytes, its record says 10"), std::string::npos);
  EXPECT_NE(message_of(check("rank9.bin"), "CTR.variable").find("rank 9"), std::string::npos);
  // The bound on names is the limit's: the long name passes a wider one.
  Limits limits;
  limits.ctranslate2.max_name_bytes = 4097;
  EXPECT_EQ(errors_of(check("long_name.bin", limits)), "");
  // The byte count's check reads past a wrong record: the file's other variables still count.
  EXPECT_EQ(ct(check("wrong_byte_count.bin")).total_bytes, 10u);
}

TEST(CTranslate2, Alias) {
  EXPECT_EQ(errors_of(check("transformer_v3.bin")), "");
  EXPECT_EQ(errors_of(check("missing_alias.bin")), "CTR.alias");
  EXPECT_EQ(errors_of(check("alias_shadows.bin")), "CTR.alias");
  EXPECT_NE(message_of(check("missing_alias.bin"), "CTR.alias").find("decoder/embedding/weight"), std::string::npos);
}

TEST(CTranslate2, Truncated) {
  EXPECT_EQ(errors_of(check("truncated.bin")), "CTR.truncated");
  EXPECT_EQ(errors_of(check("truncated_alias.bin")), "CTR.truncated");
  const std::string good = fixture("whisper_v6.bin");
  // Cut anywhere, the file is found truncated, and only truncated.
  for (std::size_t cut = 10; cut < good.size(); cut += 37) {
    SCOPED_TRACE(cut);
    EXPECT_EQ(errors_of(read(std::string_view(good).substr(0, cut))), "CTR.truncated");
  }
}

TEST(CTranslate2, Trailing) {
  EXPECT_EQ(errors_of(check("whisper_v6.bin")), "");
  EXPECT_EQ(errors_of(check("trailing.bin")), "CTR.trailing");
  // Before version 3 the file ends with the last variable's data.
  EXPECT_EQ(errors_of(read(fixture("transformer_v2.bin") + "x")), "CTR.trailing");
}

TEST(CTranslate2, TheMemoryBudgetBoundsTheNamesKept) {
  tensorgate::CountingBudget budget(16);  // the first name asks a mebibyte
  auto v = tensorgate::make_ctranslate2_validator({}, &budget);
  const Report r = tensorgate::validate_whole(*v, fixture("whisper_v6.bin"));
  EXPECT_FALSE(r.valid);
  ASSERT_TRUE(r.aborted);
  EXPECT_EQ(r.aborted->limit, "ctranslate2-memory-budget");
}

TEST(CTranslate2, SkippingTheDataGivesTheSameReport) {
  std::uint64_t skipped = 0;
  const std::string bytes = fixture("whisper_v6.bin");
  const Report r = tgtest::skipping_runs([] { return tensorgate::make_ctranslate2_validator(); }, bytes, true, 1, &skipped);  // a byte at a time: each run whole
  EXPECT_TRUE(r.valid) << errors_of(r);
  EXPECT_EQ(skipped, ct(r).total_bytes);  // every variable's data, nothing else
}

// Detection: a model.bin is recognised by content, and only by it: a version alone, a version
// with a spec name that is no class name, or a version 1 record that makes no sense is not one.
TEST(CTranslate2, DetectionIsStrict) {
  const auto format_of = [](std::string_view bytes) { return check_detected("model.bin", bytes).format; };
  using tensorgate::Format;
  EXPECT_EQ(format_of(fixture("whisper_v6.bin")), Format::ctranslate2);
  EXPECT_EQ(format_of(fixture("transformer_v1.bin")), Format::ctranslate2);
  EXPECT_NE(format_of(std::string("\x06\0\0\0\x0c\0Whisper Spec\0", 18)), Format::ctranslate2);  // a space
  EXPECT_NE(format_of(std::string("\x06\0\0\0\x0c\0WhisperSpecX", 18)), Format::ctranslate2);    // no NUL
  EXPECT_NE(format_of(std::string("\x06\0\0\0\x01\0\0", 7)), Format::ctranslate2);               // an empty name
  EXPECT_NE(format_of(std::string("\x07\0\0\0\x0c\0WhisperSpec\0", 18)), Format::ctranslate2);  // version 7
  // Version 1: a first record with an item size that is none, a rank past 8.
  std::string v1 = fixture("transformer_v1.bin");
  std::string bad = v1;
  bad[10 + 26 + 1 + 8] = 3;  // the first variable's item size ("encoder/embeddings/weight" + NUL is 26 bytes, rank 2)
  EXPECT_NE(format_of(bad), Format::ctranslate2);
  bad = v1;
  bad[10 + 26] = 9;
  EXPECT_NE(format_of(bad), Format::ctranslate2);
  // Small safetensors lengths with the bytes after them, a pickle: what they were.
  EXPECT_EQ(format_of(std::string("\x06\0\0\0\0\0\0\0{}", 10)), Format::safetensors);
  EXPECT_EQ(format_of(std::string("\x01\0\0\0\0\0\0\0", 8)), Format::safetensors);
  EXPECT_EQ(format_of(std::string("\x80\x02}q\x00.", 6)), Format::pickle);
  EXPECT_EQ(format_of(std::string("GGUF\x03\0\0\0", 8)), Format::gguf);
}

}  // namespace
