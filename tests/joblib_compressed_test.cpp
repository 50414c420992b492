// Compressed joblib files (core/src/pickle/compressed/): joblib.dump(obj, f, compress=...)
// with each compressor joblib has, and the old ZF header, inflated as they stream and scanned
// as an uncompressed joblib file is, arrays skipped by their size. Every rule both ways, the
// same report in any chunks (check_stream: byte by byte for small files), the bounds, and
// format detection: only a stream that inflates to PROTO makes a compressed file a pickle.
// Files from the real writer (tests/data/joblib/make_compressed_fixtures.py).
#include <gtest/gtest.h>

#include <string>

#include "test_data.hpp"
#include "chunked.hpp"
#include "stream_check.hpp"
#include "tensorgate/detect.hpp"
#include "tensorgate/pickle.hpp"
#include "tensorgate/validator.hpp"

namespace {

using tensorgate::Limits;
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

const char* const kCompressors[] = {"zlib", "gzip", "bz2", "xz", "lzma", "lz4"};

// The uncompressed pickle of arrays.<c>.joblib: 1000 float32, 7 int64, 12 int16, 3 <U3.
constexpr std::uint64_t kArrayBytes = 4000 + 56 + 24 + 36;

TEST(JoblibCompressed, EveryCompressorsArraysAreInflatedAndSkippedBySize) {
  for (const char* c : kCompressors) {
    SCOPED_TRACE(c);
    const std::string bytes = fixture(std::string("arrays.") + c + ".joblib");
    const Report r = check_pickle(bytes);
    EXPECT_TRUE(r.valid) << errors_of(r);
    EXPECT_EQ(errors_of(r), "");
    EXPECT_EQ(warnings_of(r), "");
    EXPECT_EQ(r.format, tensorgate::Format::pickle);
    EXPECT_EQ(summary(r).compression, c);
    EXPECT_EQ(summary(r).compressed_bytes, bytes.size());
    EXPECT_EQ(summary(r).joblib_arrays, 4u);
    EXPECT_EQ(summary(r).joblib_array_bytes, kArrayBytes);
    EXPECT_GT(summary(r).inflated_bytes, kArrayBytes);
    EXPECT_EQ(summary(r).pickles, 1u);
    // Through format detection, as `tensorgate check model.joblib` sees it: the same report.
    const Report d = check_detected("model.joblib", bytes);
    EXPECT_EQ(tgtest::render(d), tgtest::render(r));
  }
}

TEST(JoblibCompressed, CompressThreeIsZlib) {
  const Report r = check_pickle(fixture("arrays.compress3.joblib"));
  EXPECT_TRUE(r.valid) << errors_of(r);
  EXPECT_EQ(summary(r).compression, "zlib");
}

TEST(JoblibCompressed, ADangerousGlobalInsideEveryCompressorIsFound) {
  for (const char* c : kCompressors) {
    SCOPED_TRACE(c);
    const std::string bytes = fixture(std::string("hostile.") + c + ".joblib");
    const Report r = check_pickle(bytes);
    EXPECT_FALSE(r.valid);
    EXPECT_EQ(errors_of(r), "PK.dangerous-global");
    EXPECT_NE(message_of(r, "PK.dangerous-global").find("system"), std::string::npos);
    EXPECT_EQ(summary(r).joblib_arrays, 1u);
    EXPECT_EQ(check_detected("model.joblib", bytes).findings.size(), r.findings.size());
  }
}

// The verdict is final inside the stream, before the input ends (the service's early 422).
TEST(JoblibCompressed, TheVerdictComesBeforeTheEnd) {
  const std::string bytes = fixture("hostile_first.zlib.joblib");
  auto v = tensorgate::make_validator(tensorgate::FormatChoice::auto_detect, "model.joblib", Limits{});
  v->set_total_size(bytes.size());
  tensorgate::Progress p = tensorgate::Progress::need_more;
  std::size_t fed = 0;
  while (fed < bytes.size() && p == tensorgate::Progress::need_more) {
    p = v->feed(std::string_view(bytes).substr(fed, 1));
    ++fed;
  }
  EXPECT_EQ(p, tensorgate::Progress::invalid);
  EXPECT_LE(fed, 4096u);  // detection holds the first 4 KiB; the global is in them
  EXPECT_GT(bytes.size(), 4096u);
  EXPECT_EQ(errors_of(v->finish()), "PK.dangerous-global PK.compressed-stream");  // cut short there
}

TEST(JoblibCompressed, TheOldZfHeaderIsReadAsJoblibReadsIt) {
  const Report r = check_pickle(fixture("compat.zf.joblib"));
  EXPECT_TRUE(r.valid) << errors_of(r);
  EXPECT_EQ(summary(r).compression, "zf");
  EXPECT_EQ(summary(r).protocol, 2u);
  const Report h = check_detected("old.pkl", fixture("compat_hostile.zf.joblib"));
  EXPECT_EQ(errors_of(h), "PK.dangerous-global");
  EXPECT_EQ(summary(h).compression, "zf");
}

TEST(JoblibCompressed, AZfLengthOtherThanTheStreamsIsABrokenStream) {
  std::string bytes = fixture("compat.zf.joblib");
  ASSERT_EQ(bytes.substr(0, 4), "ZF0x");
  bytes[4] = bytes[4] == '1' ? '2' : '1';  // another length
  const Report r = check_pickle(bytes);
  EXPECT_EQ(errors_of(r), "PK.compressed-stream");
  EXPECT_NE(message_of(r, "PK.compressed-stream").find("ZF header says"), std::string::npos);
  // A field that is no number, and a header cut short.
  std::string junk = fixture("compat.zf.joblib");
  junk[3] = 'q';
  EXPECT_EQ(errors_of(check_pickle(junk)), "PK.compressed-stream");
  EXPECT_EQ(errors_of(check_pickle(bytes.substr(0, 10))), "PK.compressed-stream");
  // A space after the field (joblib <= 0.8.4) is skipped.
  std::string spaced = fixture("compat.zf.joblib");
  spaced.insert(21, " ");
  EXPECT_TRUE(check_pickle(spaced).valid) << errors_of(check_pickle(spaced));
}

TEST(JoblibCompressed, AZfHeaderNamingMoreThanTheBoundIsABomb) {
  std::string bytes = fixture("compat.zf.joblib");
  bytes.replace(2, 19, "0xffffffffffffff   ");
  const Report r = check_pickle(bytes);
  EXPECT_EQ(errors_of(r), "PK.decompression PK.compressed-stream");
}

TEST(JoblibCompressed, AnObjectArraysOwnPickleIsScanned) {
  const Report r = check_pickle(fixture("object_array.zlib.joblib"));
  EXPECT_TRUE(r.valid) << errors_of(r);
  EXPECT_EQ(summary(r).joblib_arrays, 1u);
}

TEST(JoblibCompressed, ATruncatedStreamIsFoundForEveryCompressor) {
  for (const char* c : kCompressors) {
    SCOPED_TRACE(c);
    const std::string bytes = fixture(std::string("truncated.") + c + ".joblib");
    const Report r = check_pickle(bytes);
    EXPECT_EQ(errors_of(r), "PK.compressed-stream");
    EXPECT_NE(message_of(r, "PK.compressed-stream").find("cut short"), std::string::npos);
    EXPECT_EQ(summary(r).compressed_bytes, bytes.size());
  }
}

TEST(JoblibCompressed, ACorruptStreamIsFound) {
  // The flipped byte first inflates to other bytes (here a PROTO of no protocol), then breaks.
  const Report r = check_pickle(fixture("corrupt.zlib.joblib"));
  EXPECT_EQ(errors_of(r), "PK.protocol PK.compressed-stream");
  EXPECT_NE(message_of(r, "PK.compressed-stream").find("does not decompress"), std::string::npos);
  // A gzip's CRC-32 checked: its last bytes changed.
  std::string gz = fixture("arrays.gzip.joblib");
  gz[gz.size() - 6] ^= 1;
  EXPECT_EQ(errors_of(check_pickle(gz)), "PK.compressed-stream");
}

TEST(JoblibCompressed, BytesAfterTheStreamAreTrailing) {
  for (const char* name : {"trailing.zlib.joblib", "trailing.gzip.joblib"}) {
    SCOPED_TRACE(name);
    const std::string bytes = fixture(name);
    const Report r = check_pickle(bytes);
    EXPECT_EQ(errors_of(r), "PK.compressed-trailing");
    EXPECT_EQ(summary(r).joblib_arrays, 4u);
    EXPECT_LT(summary(r).compressed_bytes, bytes.size());
    ASSERT_TRUE(r.findings[0].offset);
    EXPECT_EQ(*r.findings[0].offset, summary(r).compressed_bytes);
  }
  // Without: no finding.
  EXPECT_EQ(errors_of(check_pickle(fixture("arrays.zlib.joblib"))), "");
}

Limits small_bomb_limits() {
  Limits l;
  l.pickle.bomb_floor_bytes = 1 << 20;
  l.pickle.bomb_ratio = 50;
  return l;
}

TEST(JoblibCompressed, ABombPastTheRatioAndFloorIsFoundAndNotInflatedFurther) {
  for (const char* c : {"zlib", "xz", "bz2"}) {
    SCOPED_TRACE(c);
    const std::string bytes = fixture(std::string("bomb.") + c + ".joblib");
    // 4 MiB of zeros: within the default bounds.
    const Report fine = check_pickle(bytes);
    EXPECT_TRUE(fine.valid) << errors_of(fine);
    EXPECT_EQ(summary(fine).joblib_array_bytes, 4u << 20);
    const Report r = check_pickle(bytes, small_bomb_limits());
    EXPECT_EQ(errors_of(r), "PK.decompression");
    EXPECT_NE(message_of(r, "PK.decompression").find("decompression bomb"), std::string::npos);
    EXPECT_LE(summary(r).inflated_bytes, std::max<std::uint64_t>(1 << 20, 50 * (bytes.size() + (16 << 10))));
  }
}

TEST(JoblibCompressed, TheAbsoluteBoundIsABomb) {
  Limits l;
  l.pickle.max_inflated_bytes = 100000;
  const Report r = check_pickle(fixture("arrays.lz4.joblib"), Limits{});
  EXPECT_TRUE(r.valid);
  const Report b = check_pickle(fixture("bomb.zlib.joblib"), l);
  EXPECT_EQ(errors_of(b), "PK.decompression");
  EXPECT_NE(message_of(b, "PK.decompression").find("max_inflated_bytes"), std::string::npos);
  EXPECT_EQ(summary(b).inflated_bytes, 100000u);
}

TEST(JoblibCompressed, TheBombsVerdictIsTheSameByteByByte) {
  const std::string bytes = fixture("bomb.zlib.joblib");
  const Limits l = small_bomb_limits();
  const auto make = [&] { return tensorgate::make_pickle_validator(l); };
  std::vector<std::size_t> every;
  for (std::size_t at = 1; at < bytes.size(); ++at) every.push_back(at);
  EXPECT_EQ(tgtest::render(tgtest::feed_split(make, bytes, every)), tgtest::render(tgtest::feed_split(make, bytes, {})));
}

TEST(JoblibCompressed, AnXzDictionaryPastTheDecoderMemoryIsAnAbort) {
  Limits l;
  l.pickle.max_decoder_memory = 1 << 20;  // joblib's xz level 3 asks for a 4 MiB dictionary
  const Report r = check_pickle(fixture("arrays.xz.joblib"), l);
  ASSERT_TRUE(r.aborted);
  EXPECT_EQ(r.aborted->limit, "pickle-decoder-memory");
  EXPECT_FALSE(r.valid);
  EXPECT_TRUE(check_pickle(fixture("arrays.xz.joblib")).valid);
}

TEST(JoblibCompressed, ACompressedFileOfNoPickleStaysWhatItWas) {
  // Inflated at once to text: unknown, as before.
  const Report gz = check_detected("notes.gz", fixture("text.gz"));
  EXPECT_EQ(gz.format, tensorgate::Format::unknown);
  EXPECT_EQ(errors_of(gz), "FK.unknown");
  // bzip2 inflates to nothing before its first block ends: read on, then declined.
  const Report bz = check_detected("notes.bz2", fixture("text.bz2"));
  EXPECT_EQ(bz.format, tensorgate::Format::unknown);
  EXPECT_EQ(errors_of(bz), "FK.unknown");
  EXPECT_NE(message_of(bz, "FK.unknown").find("bzip2"), std::string::npos);
  EXPECT_EQ(tensorgate::detect_kind(fixture("text.gz")).format, tensorgate::Format::unknown);
  // A truncated compressed pickle whose first bytes inflate to nothing is no known pickle.
  const std::string cut = fixture("arrays.bz2.joblib").substr(0, 200);
  EXPECT_EQ(check_detected("model.joblib", cut).format, tensorgate::Format::unknown);
  // Forced to pickle, a compressed file of text is one that breaks.
  EXPECT_EQ(errors_of(check_pickle(fixture("text.gz"))), "PK.memo-missing");  // "j": LONG_BINGET
}

TEST(JoblibCompressed, APendingProbeConfirmedLaterIsAPickle) {
  // bzip2's first block is the whole file: nothing is inflated from the first 4 KiB... of a
  // larger file; here the file is small, so the probe decides at once or later, the same way.
  const Report r = check_detected("model.joblib", fixture("hostile.bz2.joblib"));
  EXPECT_EQ(r.format, tensorgate::Format::pickle);
  EXPECT_EQ(errors_of(r), "PK.dangerous-global");
}

TEST(JoblibCompressed, PlainPicklesAreUnchanged) {
  const Report r = check_pickle(fixture("arrays.joblib"));
  EXPECT_TRUE(r.valid) << errors_of(r);
  EXPECT_EQ(summary(r).compression, "");
  EXPECT_EQ(summary(r).compressed_bytes, 0u);
  // A short plain pickle that begins like a magic ("]" is EMPTY_LIST, 5d 00 lzma-alone's).
  EXPECT_TRUE(check_pickle(std::string_view("]q\x00.", 4)).valid);
  EXPECT_TRUE(check_pickle("].").valid);
  EXPECT_EQ(errors_of(check_pickle("]")), "PK.no-stop");
  // 5d 00 is lzma-alone's to joblib, whatever follows.
  EXPECT_EQ(errors_of(check_pickle(std::string_view("]\x00.", 3))), "PK.compressed-stream");
}

}  // namespace
