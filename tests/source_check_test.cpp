// check_source (cli/source_check.cpp): the CLI's read loop over any InputSource. Whatever the size
// of each read and whether the source knows its size, the report is the one of the whole bytes.
// With the size known, what the validator only counts is skipped, never read; the tail is still
// read for FK.polyglot's search; a safetensors header arrives in one read into the validator. A
// source that seeks goes over an ONNX model's raw data, a run the validator does not look at.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "kind/auto_validator.hpp"
#include "kind/classify.hpp"
#include "pickle_builder.hpp"
#include "source_check.hpp"
#include "st_builder.hpp"
#include "stream_check.hpp"
#include "tensorgate/validator.hpp"
#include "wire_builder.hpp"
#include "zip_builder.hpp"

using namespace tgtest;
using tensorgate::CheckedFile;
using tensorgate::FormatChoice;
using tensorgate::cli::InputSource;
using tensorgate::cli::SourceRead;

namespace {

// What format detection looks at first, and FK.polyglot's window at the end (a zip end record
// and the longest comment).
using tensorgate::detail::kind::kPrefix;
using tensorgate::detail::kind::kTailWindow;

// The bytes of a file, served at most `max_read` at a time, with or without a size; it counts
// what was read and skipped and keeps the size of each read asked for.
class ScriptedSource final : public InputSource {
 public:
  ScriptedSource(std::string bytes, bool sized, std::size_t max_read)
      : bytes_(std::move(bytes)), sized_(sized), max_read_(max_read) {}

  std::optional<std::uint64_t> size() const override {
    return sized_ ? std::optional<std::uint64_t>(bytes_.size()) : std::nullopt;
  }
  SourceRead read(std::span<std::byte> out, std::uint64_t) override {
    if (fail_at_ && pos_ >= *fail_at_) return SourceRead{0, "the disk went away"};
    asked_.push_back(out.size());
    const std::size_t n = std::min({out.size(), max_read_, bytes_.size() - pos_});
    if (n) std::memcpy(out.data(), bytes_.data() + pos_, n);
    pos_ += n;
    read_ += n;
    return SourceRead{n, std::nullopt};
  }
  std::optional<std::string> skip(std::uint64_t count) override {
    EXPECT_TRUE(sized_) << "a source of unknown size is never asked to skip";
    EXPECT_LE(count, bytes_.size() - pos_);
    pos_ += count;
    skipped_ += count;
    ++skips_;
    return std::nullopt;
  }
  bool reads_tail() const override { return reads_tail_; }
  bool seeks() const override { return seeks_; }

  std::size_t read_bytes() const { return read_; }
  std::size_t skipped_bytes() const { return skipped_; }
  std::size_t skips() const { return skips_; }
  const std::vector<std::size_t>& asked() const { return asked_; }
  void set_reads_tail(bool yes) { reads_tail_ = yes; }
  void set_seeks(bool yes) { seeks_ = yes; }
  void fail_at(std::size_t pos) { fail_at_ = pos; }

 private:
  std::string bytes_;
  bool sized_;
  std::size_t max_read_;
  bool reads_tail_ = true;
  bool seeks_ = false;
  std::optional<std::size_t> fail_at_;
  std::size_t pos_ = 0, read_ = 0, skipped_ = 0, skips_ = 0;
  std::vector<std::size_t> asked_;
};

CheckedFile check(ScriptedSource& source, const std::string& name) {
  return tensorgate::cli::check_source(source, name, name, tensorgate::Limits{}, FormatChoice::auto_detect);
}

std::string json_of(const CheckedFile& f) {
  EXPECT_FALSE(f.error) << *f.error;
  return f.report ? tensorgate::report_json(*f.report) : std::string("no report");
}

// A safetensors file whose one tensor's bytes end in a zip archive: zip readers take it for one.
std::string polyglot_file(std::size_t zeros_before) {
  const std::string zip = torch_archive({}, "archive", PickleBuilder().proto(2).call("os", "system", "id").stop().bytes());
  const std::string data = std::string(zeros_before, '\0') + zip;
  return st_file(R"({"w":{"dtype":"U8","shape":[)" + std::to_string(data.size()) + R"(],"data_offsets":[0,)" +
                     std::to_string(data.size()) + "]}}",
                 data);
}

// An ONNX model whose initializers hold these many bytes of raw data each, in this order.
std::string onnx_model(std::initializer_list<std::size_t> raws) {
  using namespace tgtest::wire;
  std::string inits;
  std::size_t i = 0;
  for (const std::size_t raw : raws) {
    const std::string name = "w" + std::to_string(i++);
    inits += field_len(5, field_varint(1, raw / 4) + field_varint(2, 1) + field_len(8, name) +
                              field_len(9, std::string(raw, '\1')));
  }
  const std::string graph = inits + field_len(11, field_len(1, "x")) + field_len(12, field_len(1, "w0"));
  return field_varint(1, 8) + field_len(8, field_varint(2, 13)) + field_len(7, graph);
}
std::string onnx_model(std::size_t raw) { return onnx_model({raw}); }

std::string fed_whole(std::string_view name, std::string_view bytes) {
  auto v = tensorgate::make_validator(FormatChoice::auto_detect, name, tensorgate::Limits{});
  return tensorgate::report_json(tensorgate::validate_whole(*v, bytes));
}

}  // namespace

TEST(SourceCheck, AnOnnxModelsRawDataIsSoughtOverWhenTheSourceSeeks) {
  const std::string bytes = onnx_model(8 << 20);
  const std::string expected = fed_whole("model.onnx", bytes);
  ScriptedSource source(bytes, true, SIZE_MAX);
  source.set_seeks(true);
  EXPECT_EQ(json_of(check(source, "model.onnx")), expected);
  // What detection looks at first, then FK.polyglot's window at the end; the raw data between
  // them is sought over.
  EXPECT_EQ(source.read_bytes(), kPrefix + kTailWindow);
  EXPECT_EQ(source.skipped_bytes(), bytes.size() - kPrefix - kTailWindow);
  // A source that does not seek (a remote file) reads it all, with the same report.
  ScriptedSource stream(bytes, true, SIZE_MAX);
  EXPECT_EQ(json_of(check(stream, "model.onnx")), expected);
  EXPECT_EQ(stream.read_bytes(), bytes.size());
}

TEST(SourceCheck, AfterALongSeekTheTailArrivesInOneRead) {
  const std::string bytes = onnx_model(8 << 20);
  ScriptedSource source(bytes, true, SIZE_MAX);
  source.set_seeks(true);
  check(source, "model.onnx");
  ASSERT_GE(source.asked().size(), 2u);
  EXPECT_EQ(source.asked().back(), kTailWindow);  // one read of it, and none after
  EXPECT_EQ(source.skips(), 1u);
}

// The layout of most weight files: a large matrix, then its small bias. After the seek over the
// matrix the reads are small, so the bias (4 KiB, shorter than a chunk) is sought over too and
// what is read is about the tensors' heads.
TEST(SourceCheck, ASmallBiasAfterALongSeekIsSoughtOverToo) {
  const std::string bytes = onnx_model({4 << 20, 4096, 4 << 20, 4096, 4 << 20});
  ScriptedSource source(bytes, true, SIZE_MAX);
  source.set_seeks(true);
  EXPECT_EQ(json_of(check(source, "model.onnx")), fed_whole("model.onnx", bytes));
  EXPECT_EQ(source.skips(), 5u);
  EXPECT_LT(source.read_bytes(), kPrefix + kTailWindow + 4 * 2048);
  EXPECT_EQ(source.read_bytes() + source.skipped_bytes(), bytes.size());
}

// Many small tensors after a long seek: the reads grow back to whole chunks, so they are read
// through in a few reads, not sought over one system call each.
TEST(SourceCheck, ManySmallTensorsAfterALongSeekAreReadThrough) {
  std::initializer_list<std::size_t> sizes = {4 << 20, 3000, 3000, 3000, 3000, 3000, 3000, 3000, 3000, 3000, 3000,
                                              3000,    3000, 3000, 3000, 3000, 3000, 3000, 3000, 3000, 3000};
  const std::string bytes = onnx_model(sizes);
  ScriptedSource source(bytes, true, SIZE_MAX);
  source.set_seeks(true);
  EXPECT_EQ(json_of(check(source, "model.onnx")), fed_whole("model.onnx", bytes));
  EXPECT_LE(source.skips(), 4u);  // the long one, then short ones only while the reads are small
  EXPECT_LT(source.asked().size(), 12u);
}

TEST(SourceCheck, ARunShorterThanAChunkIsRead) {
  const std::string bytes = onnx_model((1 << 20) - 4096);
  ScriptedSource source(bytes, true, SIZE_MAX);
  source.set_seeks(true);
  EXPECT_EQ(json_of(check(source, "model.onnx")), fed_whole("model.onnx", bytes));
  EXPECT_EQ(source.skipped_bytes(), 0u);
}

TEST(SourceCheck, AFileShorterThanItsRawDataIsSoughtToItsEndAndFoundTruncated) {
  const std::string bytes = onnx_model(8 << 20).substr(0, 3 << 20);
  ScriptedSource source(bytes, true, SIZE_MAX);
  source.set_seeks(true);
  const CheckedFile f = check(source, "model.onnx");
  EXPECT_EQ(json_of(f), fed_whole("model.onnx", bytes));
  ASSERT_TRUE(f.report);
  EXPECT_EQ(errors_of(*f.report), "OX.wire");
  EXPECT_EQ(source.skipped_bytes(), bytes.size() - kPrefix - kTailWindow);
  EXPECT_EQ(source.read_bytes() + source.skipped_bytes(), bytes.size());
}

TEST(SourceCheck, AnyReadSizeWithOrWithoutTheSizeGivesTheWholeBytesReport) {
  const std::string files[] = {plain_file(300), st_file(R"({"a":{"dtype":"F32","shape":[3],"data_offsets":[0,12]}})",
                                                        zeros(12) + "trailing"),
                               polyglot_file(3 << 20), PickleBuilder().proto(2).call("os", "system", "id").stop().bytes()};
  for (const std::string& bytes : files) {
    const std::string expected = tensorgate::report_json(check_detected("model.safetensors", bytes));
    for (const bool sized : {true, false}) {
      for (const std::size_t max_read : {std::size_t{7}, std::size_t{4096}, std::size_t{65536}, SIZE_MAX}) {
        if (max_read == 7 && bytes.size() > (1 << 20)) continue;  // millions of reads: the small files cover it
        ScriptedSource source(bytes, sized, max_read);
        EXPECT_EQ(json_of(check(source, "model.safetensors")), expected)
            << bytes.size() << " bytes, sized " << sized << ", reads of at most " << max_read;
        EXPECT_EQ(source.read_bytes() + source.skipped_bytes(), bytes.size());
      }
    }
  }
}

TEST(SourceCheck, WithTheSizeKnownTheDataIsSkippedAndTheTailRead) {
  const std::string bytes = polyglot_file(8 << 20);
  ScriptedSource source(bytes, true, SIZE_MAX);
  const CheckedFile f = check(source, "model.safetensors");
  ASSERT_TRUE(f.report);
  EXPECT_EQ(errors_of(*f.report), "FK.polyglot");
  EXPECT_EQ(f.report->findings.back().offset, bytes.size() - 22);
  // The first 4 KiB (format detection, the whole short header), then the last 64 KiB.
  EXPECT_EQ(source.read_bytes(), kPrefix + kTailWindow);
  EXPECT_EQ(source.skipped_bytes(), bytes.size() - kPrefix - kTailWindow);
  // No read asks for more than the 1 MiB chunk.
  for (const std::size_t n : source.asked()) EXPECT_LE(n, std::size_t{1} << 20);
}

TEST(SourceCheck, ASourceThatDoesNotReadTheTailSkipsToTheEnd) {
  // A remote file: the tail would be another request (input_source.hpp), so it is not searched.
  const std::string bytes = polyglot_file(8 << 20);
  ScriptedSource source(bytes, true, SIZE_MAX);
  source.set_reads_tail(false);
  const CheckedFile f = check(source, "model.safetensors");
  ASSERT_TRUE(f.report);
  EXPECT_EQ(errors_of(*f.report), "");
  EXPECT_EQ(source.read_bytes(), kPrefix);
  EXPECT_EQ(source.skipped_bytes(), bytes.size() - kPrefix);
}

TEST(SourceCheck, ALargeHeaderArrivesInOneReadOfItsRest) {
  const std::string bytes = plain_file(20000);  // a header of a few hundred KB
  std::uint64_t n = 0;
  std::memcpy(&n, bytes.data(), 8);
  ASSERT_GT(n + 8, 2 * kPrefix);
  ScriptedSource source(bytes, true, SIZE_MAX);
  const CheckedFile f = check(source, "model.safetensors");
  ASSERT_TRUE(f.report);
  EXPECT_TRUE(f.report->valid);
  ASSERT_GE(source.asked().size(), 2u);
  EXPECT_EQ(source.asked()[0], kPrefix);
  EXPECT_EQ(source.asked()[1], n + 8 - kPrefix);  // straight into the validator's room
}

TEST(SourceCheck, AReadErrorIsNoVerdict) {
  ScriptedSource source(polyglot_file(1 << 20), false, 4096);  // read to the end: it meets the error
  source.fail_at(8192);
  const CheckedFile f = check(source, "model.safetensors");
  EXPECT_FALSE(f.report);
  ASSERT_TRUE(f.error);
  EXPECT_EQ(*f.error, "the disk went away");
}
