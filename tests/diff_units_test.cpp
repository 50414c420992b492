// The diff's parts: the value comparator (exact decoding, non-finite values, signed zeros,
// relative differences, blocks), every byte read at most once, the markdown's escaping and
// size bound, and the change kinds the docs and the schema list.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <deque>
#include <boost/json.hpp>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "pairing/numbers.hpp"
#include "conversion_builder.hpp"
#include "diff/value_compare.hpp"
#include "diff_run.hpp"
#include "st_builder.hpp"

namespace {

using namespace tgtest;
using namespace tensorgate::detail::diff;
using tensorgate::ChangeKind;

const Encoding kF32{ElementKind::f32, 1, 4};
const Encoding kF16{ElementKind::f16, 1, 2};

std::string f32s(std::initializer_list<float> v) {
  std::string out;
  for (const float x : v) {
    const auto bits = std::bit_cast<std::uint32_t>(x);
    for (int b = 0; b < 4; ++b) out += static_cast<char>(bits >> (8 * b));
  }
  return out;
}

tensorgate::ValueDiff compare(const Encoding& a, const std::string& x, const Encoding& b, const std::string& y,
                              std::uint64_t n) {
  ValueComparator c(a, b);
  c.run(reinterpret_cast<const std::byte*>(x.data()), reinterpret_cast<const std::byte*>(y.data()), n);
  return c.result();
}

TEST(DiffValues, EveryF16ValueDecodesExactly) {
  std::string f16, f32;
  for (std::uint32_t h = 0; h < 65536; ++h) {
    f16 += static_cast<char>(h & 0xff);
    f16 += static_cast<char>(h >> 8);
    f32 += f32s({static_cast<float>(tensorgate::detail::pairing::f16_value(static_cast<std::uint16_t>(h)))});
  }
  const auto v = compare(kF16, f16, kF32, f32, 65536);
  EXPECT_EQ(v.changed, 0u);
  EXPECT_FALSE(v.identical);  // other bytes, the same values
}

TEST(DiffValues, NonFiniteChangesAreCountedApartFromTheLargestDifference) {
  const float nan = std::nanf(""), inf = HUGE_VALF;
  const auto v = compare(kF32, f32s({nan, inf, 1, 4, 7}), kF32, f32s({1, -inf, 2, 4, 7}), 5);
  EXPECT_EQ(v.elements, 5u);
  EXPECT_EQ(v.changed, 3u);
  EXPECT_EQ(v.nonfinite, 2u);
  EXPECT_EQ(v.max_abs, 1.0);
  EXPECT_EQ(v.max_rel, 1.0);
}

TEST(DiffValues, SignedZeroIsAChangeOfNoSize) {
  const auto v = compare(kF32, f32s({0.0f, 3}), kF32, f32s({-0.0f, 3}), 2);
  EXPECT_EQ(v.changed, 1u);
  EXPECT_EQ(v.max_abs, 0.0);
  EXPECT_FALSE(v.identical);
}

TEST(DiffValues, RelativeDifferenceSkipsOldZeros) {
  const auto v = compare(kF32, f32s({0, 2}), kF32, f32s({5, 3}), 2);
  EXPECT_EQ(v.max_abs, 5.0);
  EXPECT_EQ(v.max_rel, 0.5);
}

TEST(DiffValues, NanPayloadsAreEqualValuesAcrossTypesButChangedBytesWithinOne) {
  const std::string a = f32s({std::bit_cast<float>(0x7fc00001u)}), b = f32s({std::bit_cast<float>(0x7fc00002u)});
  EXPECT_EQ(compare(kF32, a, kF32, b, 1).changed, 1u);
  EXPECT_EQ(compare(kF32, a, kF32, b, 1).nonfinite, 1u);
  EXPECT_EQ(compare(kF16, std::string("\x01\x7e", 2), kF32, b, 1).changed, 0u);
}

TEST(DiffValues, Q8_0IsDecodedAgainstFloats) {
  std::string block("\x00\x3c", 2);  // d = 1.0 (F16)
  std::string values;
  for (int j = 0; j < 32; ++j) block += static_cast<char>(j - 16), values += f32s({static_cast<float>(j - 16)});
  const Encoding q8{ElementKind::q8_0, 32, 34};
  EXPECT_EQ(compare(q8, block, kF32, values, 32).changed, 0u);
  values.replace(4 * 3, 4, f32s({-12.5f}));
  const auto v = compare(q8, block, kF32, values, 32);
  EXPECT_EQ(v.changed, 1u);
  EXPECT_EQ(v.max_abs, 0.5);
}

TEST(DiffValues, OpaqueTypesCompareWholeBlocks) {
  const Encoding q4k{ElementKind::opaque, 256, 144};
  std::string a(288, '\x05'), b = a;
  b[200] = 0;  // in the second block
  const auto v = compare(q4k, a, q4k, b, 512);
  EXPECT_EQ(v.changed, 256u);
  EXPECT_FALSE(v.max_abs);
  EXPECT_FALSE(comparable(q4k, kF32));
  EXPECT_TRUE(comparable(q4k, q4k));
  EXPECT_TRUE(comparable(kF16, Encoding{ElementKind::q4_0, 32, 18}));
}

TEST(DiffValues, SubByteTensorsAreComparedInWholeBytes) {
  const std::string header = R"({"w":{"dtype":"F4","shape":[8],"data_offsets":[0,4]}})";
  const DiffRun r = diff_pair(file_model("a.safetensors", st_file(header, std::string("\x12\x34\x56\x78", 4))),
                              file_model("b.safetensors", st_file(header, std::string("\x12\x34\x57\x78", 4))), with_values());
  EXPECT_EQ(r.changes(), "w:values");
  EXPECT_EQ(r.change("w")->values->changed, 2u);  // one byte: two F4 elements
  EXPECT_EQ(r.change("w")->values->elements, 8u);
}

// Records every read: no byte of a file is read twice.
class Recording final : public tensorgate::ByteSource {
 public:
  Recording(tensorgate::ByteSource& inner, std::vector<std::pair<std::uint64_t, std::uint64_t>>& reads)
      : inner_(inner), reads_(reads) {}
  bool read(std::uint64_t offset, std::span<std::byte> out) override {
    reads_.emplace_back(offset, offset + out.size());
    return inner_.read(offset, out);
  }

 private:
  tensorgate::ByteSource& inner_;
  std::vector<std::pair<std::uint64_t, std::uint64_t>>& reads_;
};

TEST(DiffStreaming, EveryByteIsReadAtMostOnce) {
  TinyLlama m;
  m.hidden = 256;  // tensors of 128 KiB and more: several chunks each
  m.intermediate = 512;
  m.heads = 4;
  m.head_dim = 64;
  const auto base = make_checkpoint(m);
  auto changed = base;
  changed[3].data[7] ^= 1;
  changed[5].name = "model.layers.0.mlp.renamed_proj.weight";  // hashed: not in a pair
  changed[6].name = "model.layers.0.mlp.other.weight";
  std::map<std::string, std::vector<std::pair<std::uint64_t, std::uint64_t>>> reads;
  std::deque<Recording> wrappers;
  tensorgate::Limits limits;
  limits.diff.chunk_bytes = 64 << 10;
  const DiffRun r = diff_pair(directory_model(source_files(m, base)), directory_model(source_files(m, changed, 2)),
                              with_values(), limits, [&](const std::string& side, const std::string& file, tensorgate::ByteSource& inner) {
                                return &wrappers.emplace_back(inner, reads[side + "/" + file]);
                              });
  EXPECT_EQ(r.report.changes.size(), 3u) << r.changes();
  std::uint64_t total = 0;
  for (auto& [file, ranges] : reads) {
    std::sort(ranges.begin(), ranges.end());
    for (std::size_t i = 0; i < ranges.size(); ++i) {
      EXPECT_LE(ranges[i].second - ranges[i].first, limits.diff.chunk_bytes) << file;
      if (i) {
        EXPECT_LE(ranges[i - 1].second, ranges[i].first) << file << ": a byte read twice";
      }
      total += ranges[i].second - ranges[i].first;
    }
  }
  EXPECT_EQ(total, r.report.bytes_read);
  EXPECT_EQ(total, r.report.old_side.bytes + r.report.new_side.bytes);
}

TEST(DiffMarkdown, NamesAreCodeSpansAndTheSummaryStaysUnderItsBound) {
  const std::string evil = "a`|b<script>@team **x** [l](http://e)";
  std::string header = "{";
  std::string data;
  for (int i = 0; i < 2000; ++i) {
    header += (i ? "," : "") + std::string("\"") + "model.layers." + std::to_string(i) + ".a_long_tensor_name_for_the_markdown_bound.weight" +
              R"(":{"dtype":"F32","shape":[1],"data_offsets":[)" + std::to_string(4 * i) + "," + std::to_string(4 * i + 4) + "]}";
    data += std::string(4, '\0');
  }
  const std::string one = R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})";
  const std::string evil_file =
      st_file(R"({")" + std::string("a`|b<script>@team **x** [l](http://e)") + R"(":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", zeros(4));
  const DiffRun small = diff_pair(file_model("a.safetensors", st_file(one, zeros(4))), file_model("b.safetensors", evil_file));
  std::string md;
  tensorgate::write_diff_markdown(small.report, {}, [&](std::string_view s) { md += s; });
  EXPECT_NE(md.find("| added | ``" + std::string("a`\\|b<script>@team **x** [l](http://e)") + "`` |"), std::string::npos) << md;
  EXPECT_EQ(md.find("\n@team"), std::string::npos);

  const DiffRun big = diff_pair(file_model("a.safetensors", st_file(one, zeros(4))),
                                file_model("b.safetensors", st_file(header + "}", data)));
  std::string out;
  tensorgate::DiffLimits limits;
  tensorgate::write_diff_markdown(big.report, limits, [&](std::string_view s) { out += s; });
  EXPECT_LE(out.size(), limits.markdown_max_bytes);
  EXPECT_NE(out.find("more rows are not shown here"), std::string::npos);
  EXPECT_NE(out.find("Gate: **passed"), std::string::npos);
  EXPECT_EQ(big.report.changes.size(), 2001u);
}

std::string read_doc(const std::string& name) {
  std::ifstream in(std::string(TG_SOURCE_DIR) + "/docs/" + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(DiffKinds, TheSchemaAndTheDocsListEveryKindAndNoOther) {
  const auto schema = boost::json::parse(read_doc("diff.schema.json")).as_object();
  const auto& kinds = schema.at("$defs").at("kind").at("enum").as_array();
  std::vector<std::string> documented, compiled;
  for (const auto& k : kinds) documented.emplace_back(k.as_string());
  const std::string md = read_doc("diff.md");
  for (const auto& k : tensorgate::change_kinds()) {
    compiled.emplace_back(k.id);
    EXPECT_NE(md.find("| `" + std::string(k.id) + "` |"), std::string::npos) << k.id;
    EXPECT_EQ(tensorgate::change_kind_from_id(k.id), k.kind);
  }
  EXPECT_EQ(documented, compiled);
  EXPECT_FALSE(tensorgate::change_kind_from_id("value"));
}

}  // namespace
