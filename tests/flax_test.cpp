// Flax checkpoints (core/src/flax, family FX): files laid out as flax.serialization.to_bytes
// writes them (tests/data/flax/make_fixtures.py) and hostile ones, through format detection as
// `tensorgate check flax_model.msgpack` sees them, in any chunks and with every offered run
// skipped (check_detected). Each rule both ways, the summary, the limits.
#include <gtest/gtest.h>

#include <string>

#include "stream_check.hpp"
#include "tensorgate/detect.hpp"
#include "tensorgate/flax.hpp"
#include "tensorgate/validator.hpp"
#include "test_data.hpp"

namespace {

using tensorgate::FlaxArray;
using tensorgate::FlaxSummary;
using tensorgate::Limits;
using tensorgate::Report;
using tgtest::errors_of;
using tgtest::message_of;
using tgtest::warnings_of;

std::string fixture(const std::string& name) { return tgtest::test_data("flax/" + name); }

Report check(const std::string& name, const Limits& limits = {}) {
  return tgtest::check_detected(name, fixture(name), limits);
}
// Bytes the test builds, read as Flax whatever they start with.
Report check_bytes(const std::string& bytes, const Limits& limits = {}) {
  return tgtest::check_stream([&] { return tensorgate::make_flax_validator(limits); }, bytes);
}

const FlaxSummary& fx(const Report& r) {
  static const FlaxSummary none;
  const FlaxSummary* s = r.summary.get<FlaxSummary>();
  EXPECT_NE(s, nullptr);
  return s ? *s : none;
}

const FlaxArray* array_at(const FlaxSummary& s, const std::string& path) {
  for (const FlaxArray& a : s.arrays)
    if (a.path == path) return &a;
  return nullptr;
}

TEST(Flax, CheckpointsAsFlaxWritesThemPass) {
  for (const char* name : {"flax_model.msgpack", "dense.msgpack", "dtypes.msgpack", "nested_60.msgpack",
                           "all_types.msgpack", "fixext.msgpack", "wide_headers.msgpack", "chunked_small.msgpack",
                           "three_int8.msgpack"}) {
    SCOPED_TRACE(name);
    const Report r = check(name);
    EXPECT_EQ(r.format, tensorgate::Format::flax);
    EXPECT_TRUE(r.valid) << errors_of(r);
    EXPECT_EQ(errors_of(r), "");
    EXPECT_EQ(warnings_of(r), "");
  }
}

TEST(Flax, TheSummaryListsABertsArraysByPath) {
  const Report r = check("flax_model.msgpack");
  const FlaxSummary& s = fx(r);
  EXPECT_EQ(s.arrays_total, 39u);
  EXPECT_EQ(s.arrays.size(), 39u);
  EXPECT_EQ(s.arrays_not_listed, 0u);
  EXPECT_EQ(s.scalars, 2u);  // step (a NumPy scalar) and lr_scale (a complex)
  EXPECT_EQ(s.top_level_keys, (std::vector<std::string>{"params", "step", "lr_scale"}));
  EXPECT_EQ(s.top_level_keys_total, 3u);
  const FlaxArray* q = array_at(s, "params.bert.encoder.layer.0.attention.self.query.kernel");
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(q->dtype, "float32");
  EXPECT_EQ(q->shape, (std::vector<std::uint64_t>{16, 16}));
  EXPECT_EQ(q->bytes, 1024u);
  EXPECT_EQ(r.findings.size(), 0u);
  const FlaxArray* bf = array_at(s, "params.bert.encoder.layer.1.intermediate.dense.kernel");
  ASSERT_NE(bf, nullptr);
  EXPECT_EQ(bf->dtype, "bfloat16");
  EXPECT_EQ(bf->bytes, 16u * 32u * 2u);
  // The chunked word embeddings are one array of four chunks, listed under their map's path.
  const FlaxArray* emb = array_at(s, "params.bert.embeddings.word_embeddings.embedding");
  ASSERT_NE(emb, nullptr);
  EXPECT_EQ(emb->shape, (std::vector<std::uint64_t>{64, 16}));
  EXPECT_EQ(emb->chunks, 4u);
  EXPECT_EQ(emb->bytes, 64u * 16u * 4u);
  EXPECT_EQ(array_at(s, "params.bert.embeddings.word_embeddings.embedding.chunks.0"), nullptr);
  // Every array's buffer is where the summary says: its bytes end inside the file.
  for (const FlaxArray& a : s.arrays) EXPECT_LE(a.offset + a.bytes, r.bytes_seen) << a.path;
  std::uint64_t bytes = 0;
  for (const FlaxArray& a : s.arrays) bytes += a.bytes;
  EXPECT_EQ(s.total_bytes, bytes);
  EXPECT_EQ(s.parameters, 64u * 16 + 32 * 16 + 2 * 16 + 2 * 16 + 2 * (3 * (16 * 16 + 16) + 16 * 16 + 16 + 2 * 16 + 16 * 32 + 32 +
                                                                        32 * 16 + 16 + 2 * 16) + 16 * 16 + 16);
}

TEST(Flax, AChunkedArrayIsOneArrayOfItsChunks) {
  const std::string bytes = fixture("chunked_small.msgpack");
  const Report r = check("chunked_small.msgpack");
  const FlaxSummary& s = fx(r);
  ASSERT_EQ(s.arrays.size(), 1u);
  EXPECT_EQ(s.arrays[0].path, "params.emb");
  EXPECT_EQ(s.arrays[0].dtype, "int8");
  EXPECT_EQ(s.arrays[0].shape, (std::vector<std::uint64_t>{2, 5}));
  EXPECT_EQ(s.arrays[0].chunks, 3u);
  EXPECT_EQ(s.arrays[0].bytes, 10u);
  EXPECT_EQ(bytes.substr(s.arrays[0].offset, 4), std::string("\x00\x01\x02\x03", 4));  // arange(10), first chunk
  EXPECT_EQ(s.scalars, 0u);  // the marker and the shape's ints are the array's, not leaves
  EXPECT_EQ(s.parameters, 10u);
}

TEST(Flax, DenseArraysKeepTheirOffsetsAndShapes) {
  const std::string bytes = fixture("dense.msgpack");
  const Report r = check("dense.msgpack");
  const FlaxSummary& s = fx(r);
  ASSERT_EQ(s.arrays.size(), 2u);
  EXPECT_EQ(s.arrays[0].path, "params.Dense_0.kernel");
  EXPECT_EQ(s.arrays[0].shape, (std::vector<std::uint64_t>{2, 3}));
  EXPECT_EQ(s.arrays[1].path, "params.Dense_0.bias");
  // kernel is arange(6) as float32: its buffer's second element is 1.0f (0x3f800000).
  EXPECT_EQ(bytes.substr(s.arrays[0].offset + 4, 4), std::string("\x00\x00\x80\x3f", 4));
  EXPECT_EQ(s.parameters, 9u);
  EXPECT_EQ(s.total_bytes, 36u);
}

TEST(Flax, MalformedMsgpackIsRefused) {
  for (const char* name : {"c1.msgpack", "trailing.msgpack", "past_end.msgpack", "huge_length.msgpack", "top_array.msgpack"}) {
    SCOPED_TRACE(name);
    const Report r = check_bytes(fixture(name));
    EXPECT_FALSE(r.valid);
    EXPECT_EQ(errors_of(r), "FX.msgpack");
  }
  EXPECT_NE(message_of(check_bytes(fixture("c1.msgpack")), "FX.msgpack").find("0xc1"), std::string::npos);
  EXPECT_NE(message_of(check_bytes(fixture("trailing.msgpack")), "FX.msgpack").find("after the top-level map"),
            std::string::npos);
  EXPECT_NE(message_of(check_bytes(fixture("huge_length.msgpack")), "FX.msgpack").find("bin of 4294967280 bytes"),
            std::string::npos);
}

TEST(Flax, EveryCutOfAFileIsTruncatedNeverValid) {
  const std::string bytes = fixture("dense.msgpack");
  for (std::size_t n = 1; n < bytes.size(); ++n) {
    SCOPED_TRACE(n);
    const Report r = check_bytes(bytes.substr(0, n));
    EXPECT_FALSE(r.valid);
    EXPECT_EQ(errors_of(r), "FX.msgpack");
  }
}

TEST(Flax, AFileCutInsideAnArrayReportsTheExtensionAlone) {
  // The bias's extension is cut: what its header said is dropped, one truncation remains.
  std::string bytes = fixture("object_dtype.msgpack");
  bytes.resize(bytes.size() - 3);
  const Report r = check_bytes(bytes);
  EXPECT_EQ(errors_of(r), "FX.msgpack");
  EXPECT_NE(message_of(r, "FX.msgpack").find("inside an ext"), std::string::npos);
}

TEST(Flax, AnExtensionOrKeyCutByTheEndIsTheTruncationAlone) {
  // Whatever would be found of them once whole is not found, with the size known or not.
  std::string foreign = fixture("foreign_ext.msgpack");
  foreign.resize(foreign.size() - 2);
  EXPECT_EQ(errors_of(check_bytes(foreign)), "FX.msgpack");
  std::string one = fixture("object_dtype.msgpack");  // {"params": {"w": an extension}}
  Limits shallow;
  shallow.flax.max_depth = 2;  // the extension would open level 3
  EXPECT_EQ(errors_of(check_bytes(one, shallow)), "FX.depth");
  one.resize(one.size() - 3);
  EXPECT_EQ(errors_of(check_bytes(one, shallow)), "FX.msgpack");
  const std::string bin_key = std::string("\x81\xc4\x08" "ab", 5);
  const Report k = check_bytes(bin_key);
  EXPECT_EQ(errors_of(k), "FX.msgpack");
  EXPECT_EQ(warnings_of(k), "");
}

TEST(Flax, NestingPastTheBoundIsRefused) {
  const Report deep = check_bytes(fixture("deep_1000.msgpack"));
  EXPECT_EQ(errors_of(deep), "FX.depth");
  EXPECT_TRUE(check("nested_60.msgpack").valid);
  Limits shallow;
  shallow.flax.max_depth = 10;
  EXPECT_EQ(errors_of(check_bytes(fixture("nested_60.msgpack"), shallow)), "FX.depth");
  EXPECT_TRUE(check_bytes(fixture("dense.msgpack"), shallow).valid);
}

TEST(Flax, ArraysWhoseBuffersDoNotFitTheirShapesAreRefused) {
  for (const char* name : {"buffer_mismatch.msgpack", "negative_dim.msgpack", "foreign_ext.msgpack",
                           "chunked_mismatch.msgpack", "ext_extra.msgpack"}) {
    SCOPED_TRACE(name);
    const Report r = check_bytes(fixture(name));
    EXPECT_FALSE(r.valid);
    EXPECT_EQ(errors_of(r), "FX.array");
  }
  const Report r = check_bytes(fixture("buffer_mismatch.msgpack"));
  EXPECT_NE(message_of(r, "FX.array").find("buffer of 60 bytes; its shape (4, 4) of float32 needs 64"), std::string::npos);
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_EQ(r.findings[0].tensor.value_or(""), "params.w");
  EXPECT_NE(message_of(check_bytes(fixture("chunked_mismatch.msgpack")), "FX.array").find("20 elements, its shape 24"),
            std::string::npos);
  // The reader goes on after a refused array: a second one is judged too.
  EXPECT_TRUE(check("dense.msgpack").valid);
}

TEST(Flax, ObjectStructuredAndUnknownDtypesAreRefused) {
  EXPECT_EQ(errors_of(check_bytes(fixture("object_dtype.msgpack"))), "FX.dtype");
  EXPECT_NE(message_of(check_bytes(fixture("object_dtype.msgpack")), "FX.dtype").find("object dtype"), std::string::npos);
  EXPECT_EQ(errors_of(check_bytes(fixture("structured_dtype.msgpack"))), "FX.dtype");
  const Report ok = check("dtypes.msgpack");
  EXPECT_TRUE(ok.valid) << errors_of(ok);
  EXPECT_EQ(fx(ok).arrays_total, 18u);
  EXPECT_NE(array_at(fx(ok), "params.float8_e4m3fn"), nullptr);
}

TEST(Flax, NonStringKeysAreWarnedOf) {
  const Report r = check_bytes(fixture("non_string_key.msgpack"));
  EXPECT_TRUE(r.valid);
  EXPECT_EQ(warnings_of(r), "FX.key");
  EXPECT_EQ(fx(r).arrays.at(0).path, "params.1");
  EXPECT_EQ(warnings_of(check("dense.msgpack")), "");
}

TEST(Flax, TheListAndTheKeysAreBounded) {
  Limits few;
  few.flax.max_listed_arrays = 3;
  const Report r = check_bytes(fixture("flax_model.msgpack"), few);
  EXPECT_TRUE(r.valid);
  EXPECT_EQ(fx(r).arrays.size(), 3u);
  EXPECT_EQ(fx(r).arrays_total, 39u);
  EXPECT_EQ(fx(r).arrays_not_listed, 36u);

  Limits short_keys;
  short_keys.flax.max_key_bytes = 3;
  const Report k = check_bytes(fixture("dense.msgpack"), short_keys);
  EXPECT_TRUE(k.valid);
  EXPECT_EQ(fx(k).arrays.at(0).path, "par.Den.ker");

  Limits small_ext;
  small_ext.flax.max_ext_header_bytes = 4;
  EXPECT_EQ(errors_of(check_bytes(fixture("dense.msgpack"), small_ext)), "FX.array FX.array");

  Limits few_entries;
  few_entries.flax.max_container_entries = 2;
  const Report a = check_bytes(fixture("all_types.msgpack"), few_entries);
  EXPECT_FALSE(a.valid);
  ASSERT_TRUE(a.aborted.has_value());
  EXPECT_EQ(a.aborted->limit, "flax-container-entries");
}

TEST(Flax, ADtypeNamePastTheHeaderBoundIsRefusedUnread) {
  // {"a": ext 1 of ((2,), a 300-byte name, 2 bytes)}: the name alone passes a bound of 64 bytes.
  const std::string name(300, 'f');
  std::string inner = std::string("\x93\x91\x02\xda\x01\x2c", 6) + name + std::string("\xc4\x02\x00\x00", 4);
  std::string bytes = std::string("\x81\xa1\x61\xc8", 4) + static_cast<char>(inner.size() >> 8) +
                      static_cast<char>(inner.size() & 0xff) + '\x01' + inner;
  Limits tight;
  tight.flax.max_ext_header_bytes = 64;
  const Report r = check_bytes(bytes, tight);
  EXPECT_EQ(errors_of(r), "FX.array");
  EXPECT_NE(message_of(r, "FX.array").find("dtype name of 300 bytes"), std::string::npos);
  EXPECT_EQ(errors_of(check_bytes(bytes)), "FX.dtype");  // within the default bound: an unknown name
}

TEST(Flax, AChunkedArrayIsListedOnceUnderTheListBound) {
  Limits few;
  few.flax.max_listed_arrays = 6;
  const Report r = check_bytes(fixture("flax_model.msgpack"), few);
  EXPECT_TRUE(r.valid);
  const FlaxSummary& s = fx(r);
  EXPECT_EQ(s.arrays_total, 39u);
  EXPECT_EQ(s.arrays.size() + s.arrays_not_listed, 39u);
  const FlaxArray* emb = array_at(s, "params.bert.embeddings.word_embeddings.embedding");
  ASSERT_NE(emb, nullptr);
  EXPECT_EQ(emb->chunks, 4u);
}

TEST(Flax, ALongPathIsCutInTheSummary) {
  // Ten maps deep under keys of 200 bytes, then a 0-d int8 array: its path is 2,009 bytes.
  std::string bytes;
  for (int i = 0; i < 10; ++i) bytes += std::string("\x81\xd9\xc8", 3) + std::string(200, static_cast<char>('a' + i));
  bytes += std::string("\xc7\x0a\x01\x93\x90\xa4int8\xc4\x01\x07", 13);
  const Report r = check_bytes(bytes);
  EXPECT_TRUE(r.valid) << errors_of(r);
  ASSERT_EQ(fx(r).arrays.size(), 1u);
  EXPECT_EQ(fx(r).arrays[0].path.size(), 1024u);
  EXPECT_TRUE(fx(r).arrays[0].path.ends_with("..."));
  EXPECT_EQ(fx(r).max_depth, 10u);
}

TEST(Flax, BuffersAreSkippedNotRead) {
  const std::string bytes = fixture("flax_model.msgpack");
  std::uint64_t skipped = 0;
  const Report r = tgtest::skipping_runs([] { return tensorgate::make_flax_validator(); }, bytes, true, 1, &skipped);
  EXPECT_TRUE(r.valid);
  EXPECT_GE(skipped, fx(r).total_bytes);
}

TEST(Flax, DetectionTakesAMsgpackMapWithAStringKey) {
  // The first key decides: a map whose first key is no string is not taken for Flax.
  EXPECT_EQ(tgtest::check_detected("x.msgpack", std::string("\x81\x01\x02", 3)).format, tensorgate::Format::unknown);
  EXPECT_EQ(tgtest::check_detected("x.bin", fixture("dense.msgpack")).format, tensorgate::Format::flax);
  // The empty fixmap is pickle's PROTO, and stays the pickle's.
  EXPECT_EQ(tgtest::check_detected("x.pkl", std::string("\x80\x02K\x01.", 5)).format, tensorgate::Format::pickle);
  const Report named = tgtest::check_detected("model.msgpack", std::string("\x80\x02K\x01.", 5));
  EXPECT_NE(message_of(named, "FK.extension"), "");
}

}  // namespace
