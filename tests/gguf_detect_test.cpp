// Format detection for GGUF: --input-format / format= and auto (the magic GGUF decides, never
// the name; tests/kind_detect_test.cpp has the other kinds).
#include <gtest/gtest.h>

#include "chunked.hpp"
#include "gguf_builder.hpp"
#include "gguf_check.hpp"
#include "st_builder.hpp"
#include "tensorgate/detect.hpp"
#include "tensorgate/gguf.hpp"

namespace {

using namespace tgtest;
using tensorgate::FormatChoice;
using tensorgate::make_validator;

tensorgate::Report run(FormatChoice c, std::string_view name, std::string_view bytes, bool hint = true) {
  return feed_split([&] { return make_validator(c, name); }, bytes, {}, hint);
}

const std::string kSafetensors = st_file(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", zeros(4));

TEST(GgufDetect, ParsesTheChoice) {
  EXPECT_EQ(tensorgate::parse_format_choice("auto"), FormatChoice::auto_detect);
  EXPECT_EQ(tensorgate::parse_format_choice("safetensors"), FormatChoice::safetensors);
  EXPECT_EQ(tensorgate::parse_format_choice("gguf"), FormatChoice::gguf);
  EXPECT_EQ(tensorgate::parse_format_choice("pickle"), FormatChoice::pickle);
  EXPECT_EQ(tensorgate::parse_format_choice("zip"), FormatChoice::zip);
  EXPECT_EQ(tensorgate::parse_format_choice("npy"), FormatChoice::npy);
  EXPECT_FALSE(tensorgate::parse_format_choice("GGUF"));
  EXPECT_FALSE(tensorgate::parse_format_choice(""));
  EXPECT_EQ(tensorgate::format_choice_name(FormatChoice::gguf), "gguf");
}

TEST(GgufDetect, MagicChoosesGgufWhateverTheName) {
  const auto r = run(FormatChoice::auto_detect, "model.safetensors", gguf_minimal());
  EXPECT_EQ(r.format, tensorgate::Format::gguf);
  EXPECT_TRUE(r.valid);
  EXPECT_EQ(gguf_warnings(r), "FK.extension");  // the name says otherwise: a warning, no more
  EXPECT_EQ(gguf_warnings(run(FormatChoice::auto_detect, "model.gguf", gguf_minimal())), "");
}

TEST(GgufDetect, SafetensorsBytesAreSafetensorsWhateverTheName) {
  const auto r = run(FormatChoice::auto_detect, "model.gguf", kSafetensors);
  EXPECT_EQ(r.format, tensorgate::Format::safetensors);
  EXPECT_TRUE(r.valid);
  EXPECT_TRUE(r.has("FK.extension"));
}

TEST(GgufDetect, GgufNameWithABrokenMagicIsUnknownContent) {
  std::string f = gguf_minimal();
  f[0] = 'g';
  const auto r = run(FormatChoice::auto_detect, "dir/model.gguf", f);
  EXPECT_EQ(r.format, tensorgate::Format::unknown);
  EXPECT_EQ(gguf_errors(r), "FK.unknown");
  EXPECT_EQ(gguf_errors(run(FormatChoice::gguf, "dir/model.gguf", f)), "GG1.magic");  // forced: the format's verdict
}

TEST(GgufDetect, OverridesWin) {
  EXPECT_EQ(gguf_errors(run(FormatChoice::gguf, "m.safetensors", kSafetensors)), "GG1.magic");
  EXPECT_EQ(run(FormatChoice::safetensors, "m.gguf", gguf_minimal()).format, tensorgate::Format::safetensors);
}

TEST(GgufDetect, FewerThanFourBytes) {
  for (const bool hint : {true, false}) {
    EXPECT_EQ(gguf_errors(run(FormatChoice::auto_detect, "x.gguf", "GGU", hint)), "FK.unknown");
    EXPECT_EQ(gguf_errors(run(FormatChoice::auto_detect, "x.gguf", "", hint)), "FK.empty");
    EXPECT_EQ(gguf_errors(run(FormatChoice::gguf, "x", "GGU", hint)), "GG1.truncated");
  }
}

TEST(GgufDetect, BytesWantedBeforeTheChoice) {
  auto v = make_validator(FormatChoice::auto_detect, "");
  EXPECT_EQ(v->bytes_wanted(), tensorgate::kDetectPrefix);
  v->feed(std::string_view("GG"));
  EXPECT_EQ(v->bytes_wanted(), tensorgate::kDetectPrefix - 2);
  v->feed(std::string_view("UF"));
  EXPECT_EQ(v->snapshot().format, tensorgate::Format::gguf);
  // The first 4 KiB are looked at whatever the format (FK.polyglot's pickle probe), then
  // what GGUF wants.
  EXPECT_EQ(v->bytes_wanted(), tensorgate::kDetectPrefix - 4);
  v->feed(std::string(tensorgate::kDetectPrefix - 4, '\0'));
  EXPECT_EQ(v->bytes_wanted(), 0u);  // counts of zero: the GGUF ends with its header
}

TEST(GgufDetect, EverySplitOfTheFirstBytes) {
  for (const std::string& f : {gguf_minimal(), kSafetensors}) {
    const std::string want = render(run(FormatChoice::auto_detect, "", f));
    for (std::size_t a = 1; a < 6; ++a)
      for (std::size_t b = a + 1; b < 8; ++b)
        EXPECT_EQ(render(feed_split([] { return make_validator(FormatChoice::auto_detect, ""); }, f, {a, b}, false)), want);
  }
}

}  // namespace
