// Legacy GGML files (core/src/ggml, family GL): whisper.cpp's models and llama.cpp's files of
// before GGUF as their writers lay them out (tests/data/ggml/make_fixtures.py), through format
// detection as `tensorgate check model.bin` sees them, in any chunks and with every offered run
// skipped. Each rule both ways, placement of unversioned files, the limits, every cut of a file.
#include <gtest/gtest.h>

#include <string>

#include "stream_check.hpp"
#include "test_data.hpp"
#include "tensorgate/detect.hpp"
#include "tensorgate/ggml.hpp"
#include "tensorgate/validator.hpp"

namespace {

using tensorgate::GgmlSummary;
using tensorgate::Limits;
using tensorgate::Report;
using tgtest::errors_of;
using tgtest::message_of;
using tgtest::warnings_of;

std::string fixture(const std::string& name) { return tgtest::test_data("ggml/" + name); }

const GgmlSummary& gl(const Report& r) {
  static const GgmlSummary none;
  const GgmlSummary* s = r.summary.get<GgmlSummary>();
  EXPECT_NE(s, nullptr);
  return s ? *s : none;
}

Report detected(const std::string& bytes, const Limits& limits = {}) {
  return tgtest::check_detected("model.bin", bytes, limits);
}
Report check(const std::string& name, const Limits& limits = {}) { return detected(fixture(name), limits); }
Report direct(const std::string& bytes, const Limits& limits = {}) {
  return tgtest::check_stream([&] { return tensorgate::make_ggml_validator(limits); }, bytes);
}

std::string le32(std::uint32_t v) {
  std::string s(4, '\0');
  for (int i = 0; i < 4; ++i) s[static_cast<std::size_t>(i)] = static_cast<char>((v >> (8 * i)) & 0xff);
  return s;
}
std::string put32(std::string bytes, std::size_t at, std::uint32_t v) { return bytes.replace(at, 4, le32(v)); }

std::int64_t hparam(const GgmlSummary& s, const std::string& name) {
  for (const auto& h : s.hyperparameters)
    if (h.name == name) return h.value;
  ADD_FAILURE() << "no hyperparameter " << name;
  return -1;
}

TEST(Ggml, WhisperModelsPassWithoutTheLegacyWarning) {
  for (const char* name : {"whisper_tiny.bin", "whisper_q5_0.bin"}) {
    SCOPED_TRACE(name);
    const Report r = check(name);
    EXPECT_EQ(r.format, tensorgate::Format::ggml);
    EXPECT_TRUE(r.valid) << errors_of(r);
    EXPECT_EQ(warnings_of(r), "");
    const GgmlSummary& s = gl(r);
    EXPECT_EQ(s.kind, "whisper");
    EXPECT_EQ(s.version, 0u);
    ASSERT_EQ(s.hyperparameters.size(), 11u);
    EXPECT_EQ(hparam(s, "n_vocab"), 40);
    EXPECT_EQ(hparam(s, "n_audio_state"), 32);
    EXPECT_EQ(hparam(s, "n_mels"), 4);
    EXPECT_EQ(s.vocab_size, 6u);
    EXPECT_EQ(s.mel_filters_n_mel, 4u);
    EXPECT_EQ(s.mel_filters_n_fft, 5u);
    ASSERT_EQ(s.tensors.size(), 50u);  // 11 + 15 an encoder block + 24 a decoder block
    EXPECT_EQ(s.tensor_count, 50u);
    EXPECT_EQ(s.tensors[1].name, "encoder.conv1.weight");
    EXPECT_EQ(s.tensors[1].type, "F16");
    EXPECT_EQ(s.tensors[1].dims, (std::vector<std::uint64_t>{3, 4, 32}));
    EXPECT_EQ(s.tensors[1].bytes, 3u * 4 * 32 * 2);
    std::uint64_t parameters = 0;
    for (const auto& t : s.tensors) {
      std::uint64_t n = 1;
      for (const std::uint64_t d : t.dims) n *= d;
      parameters += n;
    }
    EXPECT_EQ(s.parameters, parameters);
  }
  const Report r_q = check("whisper_q5_0.bin");
  const GgmlSummary& q = gl(r_q);
  EXPECT_EQ(hparam(q, "ftype"), 2008);
  EXPECT_EQ(q.tensors[7].name, "encoder.blocks.0.attn.query.weight");
  EXPECT_EQ(q.tensors[7].type, "Q5_0");
  EXPECT_EQ(q.tensors[7].bytes, 32u * 22);  // 32 rows of one 22-byte block
}

TEST(Ggml, WhisperTensorsLieWhereTheirRecordsEnd) {
  const std::string bytes = fixture("whisper_tiny.bin");
  const Report r_s = check("whisper_tiny.bin");
  const GgmlSummary& s = gl(r_s);
  // The last tensor's data ends the file; each one's data ends where the next record begins.
  EXPECT_EQ(s.tensors.back().offset + s.tensors.back().bytes, bytes.size());
  std::uint64_t sum = 0;
  for (const auto& t : s.tensors) sum += t.bytes;
  EXPECT_EQ(s.tensor_bytes, sum);
}

TEST(Ggml, LlamaFilesOfEveryLayoutPassWithTheLegacyWarning) {
  struct Case {
    const char* name;
    const char* kind;
    std::uint32_t version;
  };
  for (const Case& c : {Case{"llama_ggjt_v3.bin", "llama-ggjt", 3}, Case{"llama_ggjt_v3_q8_0.bin", "llama-ggjt", 3},
                        Case{"llama_ggjt_v2_f16.bin", "llama-ggjt", 2}, Case{"llama_ggjt_v1_f16.bin", "llama-ggjt", 1},
                        Case{"llama_ggmf_v1.bin", "llama-ggmf", 1}, Case{"llama_ggml.bin", "llama-ggml", 0}}) {
    SCOPED_TRACE(c.name);
    const Report r = check(c.name);
    EXPECT_TRUE(r.valid) << errors_of(r);
    EXPECT_EQ(warnings_of(r), "GL.legacy");
    const GgmlSummary& s = gl(r);
    EXPECT_EQ(s.kind, c.kind);
    EXPECT_EQ(s.version, c.version);
    EXPECT_EQ(s.vocab_size, 5u);
    EXPECT_EQ(hparam(s, "n_embd"), 32);
    EXPECT_EQ(s.tensor_count, 12u);  // 3 + 9 a layer
    EXPECT_EQ(s.tensors[3].name, "layers.0.attention.wq.weight");
    EXPECT_EQ(s.mel_filters_n_mel, 0u);
    if (s.kind == "llama-ggjt") {
      for (const auto& t : s.tensors) EXPECT_EQ(t.offset % 32, 0u) << t.name;
    }
  }
  const Report r_s = check("llama_ggjt_v3.bin");
  const GgmlSummary& s = gl(r_s);
  EXPECT_EQ(s.tensors[3].type, "Q4_0");
  EXPECT_EQ(s.tensors[3].bytes, 32u * 18);
  EXPECT_EQ(s.tensors[0].type, "F16");
}

TEST(Ggml, OnlyGgjtPadsItsData) {
  // ggmf and unversioned files are unaligned: a record's data follows its name at once.
  const Report r_s = check("llama_ggmf_v1.bin");
  const GgmlSummary& s = gl(r_s);
  bool some_unaligned = false;
  for (const auto& t : s.tensors) some_unaligned = some_unaligned || t.offset % 32 != 0;
  EXPECT_TRUE(some_unaligned);
}

// --- GL.version -------------------------------------------------------------------------------

TEST(Ggml, VersionsLlamaCppNeverWroteAreRefused) {
  EXPECT_EQ(errors_of(check("bad_version_ggjt4.bin")), "GL.version");
  EXPECT_EQ(errors_of(check("bad_version_ggmf2.bin")), "GL.version");
  EXPECT_EQ(errors_of(detected(put32(fixture("llama_ggjt_v3.bin"), 4, 0))), "GL.version");
  EXPECT_NE(message_of(check("bad_version_ggjt4.bin"), "GL.version").find("version 4"), std::string::npos);
  EXPECT_EQ(check("bad_version_ggjt4.bin").summary.get<GgmlSummary>(), nullptr) << "no summary of a layout nobody wrote down";
  // The versions it did write.
  for (const char* name : {"llama_ggjt_v1_f16.bin", "llama_ggjt_v2_f16.bin", "llama_ggjt_v3.bin", "llama_ggmf_v1.bin"})
    EXPECT_EQ(errors_of(check(name)), "") << name;
}

// --- GL.header --------------------------------------------------------------------------------

TEST(Ggml, AnUnversionedFileNobodyWroteIsNeverValid) {
  const Report r = check("unplaceable_gpt2.bin");
  EXPECT_EQ(errors_of(r), "GL.header");
  EXPECT_FALSE(r.valid);
  EXPECT_NE(message_of(r, "GL.header").find("neither whisper.cpp's"), std::string::npos);
}

TEST(Ggml, WhisperIsToldFromUnversionedLlamaByItsMelFilters) {
  // whisper with a mel filter row count unlike n_mels: not whisper; nor llama (n_text_state
  // sits where llama's ftype is): nobody's.
  const std::string whisper = fixture("whisper_tiny.bin");
  EXPECT_EQ(errors_of(detected(put32(whisper, 48, 5))), "GL.header");
  // n_audio_state unlike n_text_state: the same.
  EXPECT_EQ(errors_of(detected(put32(whisper, 12, 64))), "GL.header");
  // The unversioned llama file is placed as llama, not whisper.
  EXPECT_EQ(gl(check("llama_ggml.bin")).kind, "llama-ggml");
  EXPECT_EQ(gl(check("whisper_tiny.bin")).kind, "whisper");
}

TEST(Ggml, HyperparametersThatCannotBeRightAreRefused) {
  EXPECT_EQ(errors_of(check("header_negative.bin")), "GL.header");
  const std::string good = fixture("llama_ggjt_v3.bin");
  EXPECT_EQ(errors_of(detected(put32(good, 8 + 6 * 4, 99))), "GL.header") << "ftype 99";
  EXPECT_EQ(errors_of(detected(put32(good, 8 + 5 * 4, 64))), "GL.header") << "n_rot larger than a head";
  EXPECT_EQ(errors_of(detected(put32(good, 8 + 3 * 4, 3))), "GL.header") << "n_embd not a multiple of n_head";
  EXPECT_EQ(errors_of(detected(put32(fixture("whisper_tiny.bin"), 4 + 10 * 4, 3001))), "GL.header") << "qntvr 3";
  EXPECT_EQ(errors_of(check("llama_ggjt_v3.bin")), "");
}

TEST(Ggml, HeaderCountsPastTheLimitsAreRefused) {
  Limits small;
  small.ggml.max_vocab = 4;
  EXPECT_EQ(errors_of(check("llama_ggjt_v3.bin", small)), "GL.header");
  EXPECT_EQ(errors_of(check("whisper_tiny.bin", small)), "GL.header");
  small.ggml.max_vocab = 6;
  EXPECT_EQ(errors_of(check("llama_ggjt_v3.bin", small)), "");
  EXPECT_EQ(errors_of(check("whisper_tiny.bin", small)), "");
  Limits mel;
  mel.ggml.max_mel_floats = 19;
  EXPECT_EQ(errors_of(check("whisper_tiny.bin", mel)), "GL.header");
  mel.ggml.max_mel_floats = 20;
  EXPECT_EQ(errors_of(check("whisper_tiny.bin", mel)), "");
}

TEST(Ggml, AnotherMagicUnderAForcedFormatIsNoGgmlFile) {
  const Report r = direct("GGUF\x03\0\0\0" + std::string(64, '\0'));
  EXPECT_EQ(errors_of(r), "GL.header");
  EXPECT_FALSE(r.valid);
}

// --- GL.vocab ---------------------------------------------------------------------------------

TEST(Ggml, VocabularyEntriesPastTheirBoundsAreRefused) {
  EXPECT_EQ(errors_of(check("vocab_past_end.bin")), "GL.vocab");
  EXPECT_EQ(errors_of(check("vocab_token_huge.bin")), "GL.vocab");
  Limits small;
  small.ggml.max_token_bytes = 5;  // "\xe2\x96\x81the" is 6 bytes
  EXPECT_EQ(errors_of(check("llama_ggjt_v3.bin", small)), "GL.vocab");
  small.ggml.max_token_bytes = 6;
  EXPECT_EQ(errors_of(check("llama_ggjt_v3.bin", small)), "");
}

// --- GL.tensor --------------------------------------------------------------------------------

TEST(Ggml, TensorRecordsThatCannotBeReadAreRefused) {
  for (const char* name : {"n_dims_5.bin", "huge_name.bin", "unknown_type.bin", "removed_type.bin", "ggjt_v2_q4_0.bin",
                           "zero_dim.bin", "partial_block.bin"}) {
    SCOPED_TRACE(name);
    const Report r = check(name);
    EXPECT_EQ(errors_of(r), "GL.tensor");
    EXPECT_FALSE(r.valid);
  }
  EXPECT_NE(message_of(check("n_dims_5.bin"), "GL.tensor").find("n_dims = 5"), std::string::npos);
  EXPECT_NE(message_of(check("removed_type.bin"), "GL.tensor").find("Q4_2"), std::string::npos);
}

TEST(Ggml, EachLayoutHoldsTheTypesOfItsTime) {
  // Quantized tensors in the original layouts (ggmf here) are refused; F16 in them is fine.
  const std::string ggmf = fixture("llama_ggmf_v1.bin");
  const Report r_s = check("llama_ggmf_v1.bin");
  const GgmlSummary& s = gl(r_s);
  const std::uint64_t record = s.tensors[3].offset - 12 - 4 * 2 - s.tensors[3].name.size();
  EXPECT_EQ(errors_of(detected(put32(ggmf, record + 8, 6))), "GL.tensor") << "Q5_0 in ggmf";
  EXPECT_NE(message_of(detected(put32(ggmf, record + 8, 6)), "GL.tensor").find("original quantization"), std::string::npos);
  EXPECT_EQ(errors_of(check("llama_ggjt_v3_q8_0.bin")), "");
  EXPECT_EQ(errors_of(check("ggjt_v2_q4_0.bin")), "GL.tensor");
}

TEST(Ggml, NamesPastTheLimitAreRefused) {
  Limits small;
  small.ggml.max_name_bytes = 30;  // "layers.0.feed_forward.w1.weight" is 31
  EXPECT_EQ(errors_of(check("llama_ggjt_v3.bin", small)), "GL.tensor");
  small.ggml.max_name_bytes = 31;
  EXPECT_EQ(errors_of(check("llama_ggjt_v3.bin", small)), "");
}

// --- GL.alignment -----------------------------------------------------------------------------

TEST(Ggml, GgjtDataNotPaddedTo32BytesIsRefused) {
  const Report r = check("misaligned.bin");
  EXPECT_EQ(errors_of(r), "GL.alignment");
  EXPECT_EQ(errors_of(check("llama_ggjt_v3.bin")), "");
  // The same unpadded records under ggmf's magic are its layout: no padding expected.
  EXPECT_EQ(errors_of(check("llama_ggmf_v1.bin")), "");
}

// --- GL.truncated and GL.trailing -------------------------------------------------------------

TEST(Ggml, TruncatedFilesAreRefused) {
  EXPECT_EQ(errors_of(check("truncated.bin")), "GL.truncated");
  EXPECT_EQ(errors_of(check("whisper_truncated.bin")), "GL.truncated");
}

TEST(Ggml, NoCutOfAFileIsValid) {
  // Every cut in the header and vocabulary, and at, before and after each record's edges: a
  // file cut between two records is one its hyperparameters say lacks tensors.
  for (const char* name : {"whisper_tiny.bin", "llama_ggjt_v3.bin", "llama_ggml.bin", "llama_ggmf_v1.bin"}) {
    SCOPED_TRACE(name);
    const std::string bytes = fixture(name);
    std::vector<std::size_t> cuts;
    for (std::size_t n = 0; n < 400; ++n) cuts.push_back(n);
    const Report whole = check(name);
    for (const auto& t : gl(whole).tensors)
      for (const std::uint64_t at : {t.offset - 1, t.offset, t.offset + 1, t.offset + t.bytes - 1, t.offset + t.bytes + 1})
        cuts.push_back(static_cast<std::size_t>(at));
    cuts.push_back(bytes.size() - 1);
    for (const std::size_t n : cuts) {
      if (n >= bytes.size()) continue;
      // In the header and vocabulary, every way of feeding it gives one report (a cut right
      // after a vocabulary entry once named the wrong offset when the entries went by whole).
      Report r;
      if (n < 400) {
        r = direct(bytes.substr(0, n));
      } else {
        auto v = tensorgate::make_ggml_validator();
        r = tensorgate::validate_whole(*v, std::string_view(bytes).substr(0, n));
      }
      ASSERT_FALSE(r.valid) << "cut at " << n;
      const std::string e = errors_of(r);
      ASSERT_TRUE(e == "GL.truncated" || e == "GL.trailing" || e == "GL.vocab") << "cut at " << n << ": " << e;
    }
  }
}

TEST(Ggml, AFileCutBetweenRecordsIsTruncated) {
  const Report r = check("whisper_cut_between_records.bin");
  EXPECT_EQ(errors_of(r), "GL.truncated");
  EXPECT_NE(message_of(r, "GL.truncated").find("of the 50 tensor records"), std::string::npos);
  const std::string bytes = fixture("llama_ggjt_v3.bin");
  const Report r_s = check("llama_ggjt_v3.bin");
  const GgmlSummary& s = gl(r_s);
  EXPECT_EQ(errors_of(detected(bytes.substr(0, s.tensors[10].offset + s.tensors[10].bytes))), "GL.truncated");
  EXPECT_EQ(errors_of(detected(bytes)), "");
}

TEST(Ggml, AFileCutBeforeItsHeaderIsPlacedHasNoSummary) {
  // Cut inside ggjt's hyperparameters: the magic named llama, the header did not say more.
  const Report r = direct(fixture("llama_ggjt_v3.bin").substr(0, 20));
  EXPECT_EQ(errors_of(r), "GL.truncated");
  EXPECT_EQ(r.summary.get<GgmlSummary>(), nullptr);
  EXPECT_NE(check("llama_ggjt_v3.bin").summary.get<GgmlSummary>(), nullptr);
}

TEST(Ggml, BytesAfterTheLastTensorAreRefused) {
  EXPECT_EQ(errors_of(check("trailing.bin")), "GL.trailing");
  EXPECT_EQ(errors_of(check("whisper_trailing.bin")), "GL.trailing");
  EXPECT_EQ(errors_of(check("whisper_tiny.bin")), "");
}

TEST(Ggml, AFileOfNoTensorIsTruncated) {
  const std::string bytes = fixture("llama_ggjt_v3.bin");
  // Header and vocabulary only: 8 + 28 + 5 entries of (4 + len + 4).
  const std::size_t vocab_end = 8 + 28 + (4 + 5 + 4) + (4 + 3 + 4) + (4 + 4 + 4) + (4 + 6 + 4) + (4 + 1 + 4);
  const Report r = detected(bytes.substr(0, vocab_end));
  EXPECT_EQ(errors_of(r), "GL.truncated");
  EXPECT_NE(message_of(r, "GL.truncated").find("after 0 of the 12"), std::string::npos);
}

// --- GL.legacy --------------------------------------------------------------------------------

TEST(Ggml, EveryLlamaFileIsLegacyAndNoWhisperFile) {
  EXPECT_EQ(warnings_of(check("llama_ggml.bin")), "GL.legacy");
  EXPECT_EQ(warnings_of(check("truncated.bin")), "GL.legacy");
  EXPECT_EQ(warnings_of(check("whisper_tiny.bin")), "");
  EXPECT_EQ(warnings_of(check("whisper_truncated.bin")), "");
}

// --- limits, skipping, the budget -------------------------------------------------------------

TEST(Ggml, TensorLimitsAbortOrStopListing) {
  Limits few;
  few.ggml.max_tensors = 11;
  const Report r = check("llama_ggjt_v3.bin", few);
  ASSERT_TRUE(r.aborted);
  EXPECT_EQ(r.aborted->limit, "ggml-tensors");
  EXPECT_FALSE(r.valid);
  few.ggml.max_tensors = 12;
  EXPECT_TRUE(check("llama_ggjt_v3.bin", few).valid);

  Limits listed;
  listed.ggml.max_listed_tensors = 2;
  const Report l = check("whisper_tiny.bin", listed);
  EXPECT_TRUE(l.valid);
  EXPECT_EQ(gl(l).tensors.size(), 2u);
  EXPECT_EQ(gl(l).tensors_not_listed, 48u);
  EXPECT_EQ(gl(l).tensor_count, 50u);
}

TEST(Ggml, TheDataIsOfferedToSkip) {
  for (const char* name : {"whisper_tiny.bin", "llama_ggjt_v3.bin"}) {
    const std::string bytes = fixture(name);
    std::uint64_t skipped = 0;
    const Report r = tgtest::skipping_runs([] { return tensorgate::make_ggml_validator(); }, bytes, true, 64, &skipped);
    EXPECT_TRUE(r.valid) << name;
    EXPECT_GE(skipped, gl(r).tensor_bytes - 64 * gl(r).tensor_count) << name;
  }
}

TEST(Ggml, AnExhaustedBudgetAborts) {
  tensorgate::CountingBudget budget(0);
  auto v = tensorgate::make_ggml_validator({}, &budget);
  const Report r = tensorgate::validate_whole(*v, fixture("whisper_tiny.bin"));
  ASSERT_TRUE(r.aborted);
  EXPECT_EQ(r.aborted->limit, "ggml-memory-budget");
}

}  // namespace
