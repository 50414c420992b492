// Splitting the input never changes the report (docs/architecture.md): every split of
// small GGUF files, with and without the size hint; every prefix (a truncated file) gives the
// same report whether its size was known or not; v1 and big-endian files too.
#include <gtest/gtest.h>

#include "chunked.hpp"
#include "gguf_builder.hpp"
#include "gguf_check.hpp"
#include "tensorgate/detect.hpp"
#include "tensorgate/gguf.hpp"
#include "tensorgate/validator.hpp"

using tensorgate::GgufSummary;

namespace {

using namespace tgtest;

GgufBuilder rich(std::uint32_t version, bool big_endian) {
  GgufBuilder b(version, big_endian);
  b.kv_str("general.architecture", "llama").kv_str("general.name", "t\xc3\xa9st").kv_u32("llama.block_count", 1);
  b.kv_strings("tokenizer.ggml.tokens", {"a", "bc", ""}).kv_f32s("tokenizer.ggml.scores", {0, 1, 2});
  b.kv_bool("x.flag", 1).kv_u64("x.big", 1ull << 40);
  b.kv_str("tokenizer.chat_template", "{{ x[name ~ 1] }}{% for m in messages %}{{ m['content'] }}{% endfor %}");
  b.tensor("blk.0.w", 0, {3}).tensor("blk.0.q", 2, {32, 1});
  return b;
}

struct Case {
  const char* name;
  std::string bytes;
};

std::vector<Case> cases() {
  std::vector<Case> out;
  out.push_back({"v3", rich(3, false).build()});
  out.push_back({"v2", rich(2, false).build()});
  out.push_back({"v1", rich(1, false).build()});
  out.push_back({"big-endian", rich(3, true).build()});
  out.push_back({"big-endian v1", rich(1, true).build()});
  GgufBuilder dup;
  dup.kv_u8("a", 1).kv_u8("a", 2).tensor("w", 0, {8}).tensor("w", 0, {8});
  out.push_back({"duplicates", dup.build()});
  GgufBuilder refuted;
  refuted.kv_u8("a", 1).kv_u8("a", 2).counts(3, 40);
  out.push_back({"refuted count", refuted.build()});
  GgufBuilder str;
  str.kv_raw("s", kGgufString, str.enc().len(500).raw("abc\xff").bytes());
  out.push_back({"long string", str.build()});
  GgufBuilder arr;
  arr.kv_array("a", kGgufArray, 3, arr.enc().u32(kGgufString).len(2).str("x").str("\xff").bytes());
  out.push_back({"nested array cut", arr.build()});
  GgufBuilder payload;  // a CT error, its offset inside the string, a template cut anywhere
  payload.kv_str("general.architecture", "llama");
  payload.kv_str("tokenizer.chat_template.tool_use", "{{ x['\\x5f\\x5fcl' ~ 'ass\\u005f_'] }}{# c #}{% raw %}r{% endraw %}");
  payload.tensor("w", 0, {8});
  out.push_back({"chat template payload", payload.build()});
  GgufBuilder layout;
  layout.kv_str("general.architecture", "llama").tensor("a", 0, {8}, 32).tensor("b", 0, {8}, 0).trailing(33);
  out.push_back({"layout and trailing", layout.build()});
  return out;
}

tgtest::ValidatorFactory gguf() {
  return [] { return tensorgate::make_gguf_validator(); };
}

TEST(GgufChunking, EverySingleCutWithAndWithoutTheHint) {
  for (const Case& c : cases()) {
    const std::string want = render(feed_split(gguf(), c.bytes, {}, true));
    for (std::size_t cut = 1; cut < c.bytes.size(); ++cut) {
      ASSERT_EQ(render(feed_split(gguf(), c.bytes, {cut}, true)), want) << c.name << " cut " << cut;
      ASSERT_EQ(render(feed_split(gguf(), c.bytes, {cut}, false)), want) << c.name << " cut " << cut;
    }
  }
}

TEST(GgufChunking, EveryPairOfCutsOfSmallFiles) {
  for (const Case& c : cases()) {
    if (c.bytes.size() > 300) continue;
    const std::string want = render(feed_split(gguf(), c.bytes, {}, false));
    for (std::size_t i = 1; i < c.bytes.size(); ++i)
      for (std::size_t j = i + 1; j < c.bytes.size(); ++j)
        ASSERT_EQ(render(feed_split(gguf(), c.bytes, {i, j}, false)), want) << c.name << " " << i << "," << j;
  }
}

TEST(GgufChunking, EveryPrefixTheSameWithOrWithoutTheSize) {
  for (const Case& c : cases()) {
    for (std::size_t n = 0; n <= c.bytes.size(); ++n) {
      const std::string_view prefix = std::string_view(c.bytes).substr(0, n);
      const std::string want = render(feed_split(gguf(), prefix, {}, true));
      ASSERT_EQ(render(feed_split(gguf(), prefix, {}, false)), want) << c.name << " prefix " << n;
      std::vector<std::size_t> every;
      for (std::size_t at = 1; at < n; ++at) every.push_back(at);
      ASSERT_EQ(render(feed_split(gguf(), prefix, every, false)), want) << c.name << " prefix " << n;
    }
  }
}

TEST(GgufChunking, VersionsAndByteOrdersAgree) {
  // The same content in v1, v2, v3 and big-endian: the same verdict and the same findings but
  // the version and byte-order notes.
  for (const Case& c : cases()) {
    if (std::string_view(c.name).find("v") != 0 && std::string_view(c.name).find("big") != 0) continue;
    const auto r = check_gguf(c.bytes);
    EXPECT_TRUE(r.valid) << c.name;
    EXPECT_EQ(gguf_errors(r), "") << c.name;
    ASSERT_TRUE(r.summary.get<GgufSummary>()) << c.name;
    EXPECT_EQ(r.summary.get<GgufSummary>()->vocab_size, 3u) << c.name;
    EXPECT_EQ(r.summary.get<GgufSummary>()->name, "t\xc3\xa9st") << c.name;
    EXPECT_EQ(r.summary.get<GgufSummary>()->block_count, 1u) << c.name;
    EXPECT_EQ(r.summary.get<GgufSummary>()->bytes, 12u + 18u) << c.name;  // F32 x 3, one Q4_0 block
    EXPECT_NE(tgtest::find_rule(r, "CT.computed-subscript"), nullptr) << c.name;
  }
}

TEST(GgufChunking, SkippingTheDataIsCountingIt) {
  const std::string f = rich(3, false).trailing(100).build();
  auto v = tensorgate::make_gguf_validator();
  v->set_total_size(f.size());
  std::size_t at = 0;
  while (v->bytes_wanted() > 0) {
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(v->bytes_wanted(), f.size() - at));
    ASSERT_GT(n, 0u);
    v->feed(std::string_view(f).substr(at, n));
    at += n;
  }
  v->skip(f.size() - at);
  EXPECT_EQ(render(v->finish()), render(tensorgate::validate_gguf(f)));
}

TEST(GgufChunking, BytesWantedNeverReadsPastTheMetadata) {
  for (const Case& c : cases()) {
    auto v = tensorgate::make_gguf_validator();
    std::size_t at = 0;
    while (at < c.bytes.size() && v->bytes_wanted() > 0) {
      const std::uint64_t want = v->bytes_wanted();
      v->feed(std::string_view(c.bytes).substr(at, static_cast<std::size_t>(std::min<std::uint64_t>(want, c.bytes.size() - at))));
      at += static_cast<std::size_t>(std::min<std::uint64_t>(want, c.bytes.size() - at));
    }
    // Valid files stop asking exactly where the tensor infos end.
    const auto whole = tensorgate::validate_gguf(c.bytes);
    if (whole.summary.get<GgufSummary>()) {
      std::uint64_t infos_end = whole.summary.get<GgufSummary>()->data_offset;
      EXPECT_LE(at, infos_end) << c.name;
      EXPECT_GT(at + 32, infos_end) << c.name;
    }
  }
}

TEST(GgufChunking, AutoDetectionAcrossEverySplit) {
  for (const Case& c : cases()) {
    const auto make = [] { return tensorgate::make_validator(tensorgate::FormatChoice::auto_detect, "x.gguf"); };
    const std::string want = render(feed_split(gguf(), c.bytes, {}, true));
    for (std::size_t cut = 1; cut < std::min<std::size_t>(c.bytes.size(), 40); ++cut) {
      ASSERT_EQ(render(feed_split(make, c.bytes, {cut}, true)), want) << c.name << " cut " << cut;
      ASSERT_EQ(render(feed_split(make, c.bytes, {1, cut + 1}, false)), want) << c.name << " cut " << cut;
    }
  }
}

}  // namespace
