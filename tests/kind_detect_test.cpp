// Content decides the kind (FK): every format by its first bytes whatever the name, Git LFS
// pointers, empty files, unknown content (and what it looks like), the extension warning, the
// polyglot marks; the published bypasses that lean on names; every split.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "chunked.hpp"
#include "gguf_builder.hpp"
#include "pickle_builder.hpp"
#include "st_builder.hpp"
#include "stream_check.hpp"
#include "tensorgate/detect.hpp"
#include "tensorgate/file_kind.hpp"
#include "zip_builder.hpp"

namespace {

using namespace tgtest;
using tensorgate::Format;
using tensorgate::LfsPointerInfo;
using tensorgate::UnknownContent;

const std::string kSafetensors = st_file(R"({"w":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}})", zeros(4));
const std::string kEvilPickle = PickleBuilder().proto(2).call("os", "system", "id").stop().bytes();
const std::string kLfs =
    "version https://git-lfs.github.com/spec/v1\n"
    "oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\n"
    "size 1340000000\n";

TEST(KindDetect, EachFormatByItsContent) {
  struct Case {
    std::string bytes;
    Format format;
  };
  const std::vector<Case> cases = {
      {kSafetensors, Format::safetensors},
      {gguf_minimal(), Format::gguf},
      {torch_archive({{"w", "FloatStorage", {2}}}), Format::zip},
      {build_zip({}), Format::zip},
      {npy_file("<f4", {2}, zeros(8)), Format::npy},
      {state_dict_pickle({{"w", "FloatStorage", {2}}}), Format::pickle},
      {legacy_torch_stream({{"w", "FloatStorage", {2}}}), Format::pickle},
      {"cos\nsystem\n(S'id'\ntR.", Format::pickle},
      {PickleBuilder().op('N').stop().bytes(), Format::pickle},
      {kLfs, Format::lfs_pointer},
      {"", Format::empty},
      {"<!DOCTYPE html><html><body>Not Found</body></html>", Format::unknown},
  };
  for (const Case& c : cases) {
    const auto r = check_detected("model.bin", c.bytes);
    EXPECT_EQ(r.format, c.format) << c.bytes.substr(0, 20);
    EXPECT_EQ(tensorgate::detect_kind(c.bytes).format, c.format) << c.bytes.substr(0, 20);
  }
}

TEST(KindDetect, ASafetensorsLengthThatLooksLikeAPickleProto) {
  // N = 0x...0280 begins with the bytes of PROTO 2: the '{' after it says safetensors.
  std::string header = R"({"w":{"dtype":"U8","shape":[1],"data_offsets":[0,1]}})";
  header.resize(640, ' ');
  const std::string file = st_file_n(640, header, zeros(1));
  ASSERT_EQ(file.substr(0, 2), "\x80\x02");
  const auto r = check_detected("model.safetensors", file);
  EXPECT_EQ(r.format, Format::safetensors);
  EXPECT_TRUE(r.valid);
}

TEST(KindDetect, APickleTruncatedInsideAnAnnouncedLengthIsAPickle) {
  // PROTO 4, FRAME of 2^63 bytes: the first eight bytes also read as a small safetensors length.
  const std::string file = std::string("\x80\x04\x95\x00\x00\x00\x00\x00\x00\x00\x80", 11);
  const auto r = check_detected("model.pkl", file);
  EXPECT_EQ(r.format, Format::pickle);
  EXPECT_EQ(errors_of(r), "PK.argument");  // a frame of 2^63 bytes
  const auto binbytes8 = check_detected("model.pkl", std::string("\x80\x04\x8e\x00\x00\x00\x00\x00\x00\x00\x40", 11) + "abc");
  EXPECT_EQ(binbytes8.format, Format::pickle);
  EXPECT_EQ(errors_of(binbytes8), "PK.truncated");
}

TEST(KindDetect, BrokenSafetensorsStaysSafetensors) {
  EXPECT_EQ(check_detected("m.safetensors", st_file("[1,2]")).format, Format::safetensors);
  EXPECT_EQ(errors_of(check_detected("m.safetensors", st_file_n(100'000'001, "{}"))), "ST1.header-too-large");
  EXPECT_EQ(errors_of(check_detected("m.safetensors", std::string("\x08\0\0\0", 4))), "ST1.too-short");
}

TEST(KindDetect, LfsPointer) {
  const auto r = check_detected("model.safetensors", kLfs);
  EXPECT_EQ(errors_of(r), "FK.lfs-pointer");
  EXPECT_EQ(r.format, Format::lfs_pointer);
  const std::string m = message_of(r, "FK.lfs-pointer");
  EXPECT_NE(m.find("sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393"), std::string::npos) << m;
  EXPECT_NE(m.find("1,340,000,000 bytes"), std::string::npos) << m;
  ASSERT_TRUE(r.summary.get<LfsPointerInfo>());
  EXPECT_EQ(r.summary.get<LfsPointerInfo>()->size, 1'340'000'000u);
  EXPECT_EQ(r.summary.get<LfsPointerInfo>()->oid.substr(0, 7), "sha256:");
  // Not an LFS pointer: a text file that only mentions one.
  EXPECT_EQ(check_detected("notes.txt", "see version https://git-lfs.github.com/spec/v1\n").format, Format::unknown);
}

TEST(KindDetect, Empty) {
  const auto r = check_detected("pytorch_model.bin", "");
  EXPECT_EQ(errors_of(r), "FK.empty");
  EXPECT_EQ(r.format, Format::empty);
}

TEST(KindDetect, UnknownSaysWhatItLooksLike) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"<!DOCTYPE html>\n<html><head><title>404</title></head></html>", "an HTML page"},
      {"  <html>\n<body>Access denied</body></html>", "an HTML page"},
      {"{\"error\": \"not found\"}", "JSON text"},
      {"Hello, this is a README.\nSecond line.\n", "text beginning \"Hello, this is a README.\""},
      {"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", "gzip-compressed data"},
      {std::string("\xde\xad\xbe\xef\x01\x02\x03\x04\x05\x06", 10), "binary data"},
  };
  for (const auto& [bytes, what] : cases) {
    const auto r = check_detected("model.safetensors", bytes);
    EXPECT_EQ(errors_of(r), "FK.unknown") << what;
    EXPECT_NE(message_of(r, "FK.unknown").find(what), std::string::npos) << message_of(r, "FK.unknown");
    const auto* content = r.summary.get<UnknownContent>();
    ASSERT_NE(content, nullptr) << what;
    EXPECT_FALSE(content->empty);
    EXPECT_EQ(content->looks_like.find(what), 0u) << what;
  }
}

TEST(KindDetect, ExtensionNamesAnotherKind) {
  auto r = check_detected("weights.safetensors", state_dict_pickle({{"w", "FloatStorage", {2}}}));
  EXPECT_EQ(r.format, Format::pickle);
  EXPECT_EQ(warnings_of(r), "FK.extension");
  EXPECT_TRUE(r.valid);
  EXPECT_NE(message_of(r, "FK.extension").find(".safetensors"), std::string::npos);
  // .bin, .pt, .pth and .ckpt are torch.save's, either zip or pickle: no warning for either.
  for (const std::string name : {"pytorch_model.bin", "model.pt", "x.pth", "last.ckpt"}) {
    EXPECT_EQ(warnings_of(check_detected(name, state_dict_pickle({}))), "") << name;
    EXPECT_EQ(warnings_of(check_detected(name, torch_archive({}))), "") << name;
  }
  EXPECT_EQ(warnings_of(check_detected("model.npz", torch_archive({}))), "");
  EXPECT_EQ(warnings_of(check_detected("model.pkl", torch_archive({}))), "FK.extension");
  EXPECT_EQ(warnings_of(check_detected("MODEL.SAFETENSORS", kSafetensors)), "");
  EXPECT_EQ(warnings_of(check_detected("no-extension", kSafetensors)), "");
}

TEST(KindDetect, PlainPickleNamedLikeAZipCheckpoint) {  // CVE-2025-10155
  const auto r = check_detected("pytorch_model.bin", kEvilPickle);
  EXPECT_EQ(r.format, Format::pickle);
  EXPECT_EQ(errors_of(r), "PK.dangerous-global");
}

TEST(KindDetect, PickleWithNoUsualExtension) {  // CVE-2025-1889
  for (const std::string name : {"model.data", "weights", "checkpoint.tar", ""})
    EXPECT_EQ(errors_of(check_detected(name, kEvilPickle)), "PK.dangerous-global") << name;
}

TEST(KindDetect, PolyglotZipAtTheEnd) {
  // A zip hidden as the last tensor's bytes: zip readers take the file for an archive.
  const std::string zip = torch_archive({}, "archive", kEvilPickle);
  const std::string file = st_file(R"({"w":{"dtype":"U8","shape":[)" + std::to_string(zip.size()) +
                                       R"(],"data_offsets":[0,)" + std::to_string(zip.size()) + "]}}",
                                   zip);
  const auto r = check_detected("model.safetensors", file);
  EXPECT_EQ(r.format, Format::safetensors);
  EXPECT_EQ(errors_of(r), "FK.polyglot");
  EXPECT_FALSE(r.canonical);
  EXPECT_EQ(r.findings.back().offset, file.size() - 22);
  // A pickle with a zip after its STOP, and a GGUF with one as its data.
  EXPECT_TRUE(check_detected("x.pkl", PickleBuilder().op('N').stop().bytes() + zip).has("FK.polyglot"));
  EXPECT_EQ(errors_of(check_detected("x.gguf", gguf_minimal() + zip)).find("FK.polyglot") != std::string::npos, true);
  // A zip itself is no polyglot; nor is data that merely holds the signature somewhere.
  EXPECT_EQ(errors_of(check_detected("a.zip", zip)).find("FK.polyglot"), std::string::npos);
  const std::string sig_in_data = st_file(R"({"w":{"dtype":"U8","shape":[30],"data_offsets":[0,30]}})",
                                          std::string("PK\x05\x06", 4) + std::string(26, '\x01'));
  EXPECT_EQ(errors_of(check_detected("m.safetensors", sig_in_data)), "");
}

TEST(KindDetect, PolyglotPickleAtTheBeginning) {
  // A zip whose first local header's name runs on into pickle opcodes that import a global.
  // (Bit 3 keeps the CRC and sizes zero: the header's bytes are ASCII up to the name's newline.)
  std::string zip = build_zip({{"x\ncos\nsystem\n(S'id'\ntR.", "data", false, true, true, false, 0}});
  const auto r = check_detected("model.zip", zip);
  EXPECT_EQ(r.format, Format::zip);
  EXPECT_TRUE(r.has("FK.polyglot"));
  EXPECT_NE(message_of(r, "FK.polyglot").find("os.system"), std::string::npos);
  EXPECT_FALSE(check_detected("model.zip", build_zip({{"x\nfoo", "data"}})).has("FK.polyglot"));
}

TEST(KindDetect, TheTailIsReadWhenTheDataIsSkipped) {
  const std::string zip = build_zip({{"a", "b"}});
  const std::string file = st_file(R"({"w":{"dtype":"U8","shape":[)" + std::to_string(200000 + zip.size()) +
                                       R"(],"data_offsets":[0,)" + std::to_string(200000 + zip.size()) + "]}}",
                                   std::string(200000, '\0') + zip);
  auto v = tensorgate::make_validator(tensorgate::FormatChoice::auto_detect, "m.safetensors");
  v->set_total_size(file.size());
  std::size_t at = 0;
  while (v->bytes_wanted() > 0) {
    const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(v->bytes_wanted(), file.size() - at));
    v->feed(std::string_view(file).substr(at, n));
    at += n;
  }
  EXPECT_LE(at, tensorgate::kDetectPrefix);
  EXPECT_EQ(v->tail_wanted(), 65558u);
  // The window in one read, searched where it is, or in two, kept and searched at the end:
  // the same end record at the same offset.
  for (const std::size_t pieces : {1, 2}) {
    auto w = tensorgate::make_validator(tensorgate::FormatChoice::auto_detect, "m.safetensors");
    w->set_total_size(file.size());
    w->feed(std::string_view(file).substr(0, at));
    w->skip(file.size() - at - 65558);
    const std::size_t first = pieces == 1 ? 65558 : 30000;
    w->feed(std::string_view(file).substr(file.size() - 65558, first));
    if (pieces == 2) w->feed(std::string_view(file).substr(file.size() - 65558 + first));
    const auto r = w->finish();
    EXPECT_EQ(errors_of(r), "FK.polyglot") << pieces;
    EXPECT_EQ(r.findings.back().offset, file.size() - 22) << pieces;
  }
}

TEST(KindDetect, EverySplitOfTheFirstBytes) {
  const std::vector<std::pair<std::string, std::string>> inputs = {
      {"model.safetensors", kSafetensors}, {"m.gguf", gguf_minimal()}, {"a.pt", torch_archive({})},
      {"a.pkl", kEvilPickle},              {"m.safetensors", kLfs},    {"x", "<html>oops</html>"},
      {"m.npy", npy_file("|u1", {3}, "abc")}};
  for (const auto& input : inputs) {
    const std::string& name = input.first;  // not a structured binding: clang 14 cannot capture one
    const std::string& bytes = input.second;
    const auto make = [&] { return tensorgate::make_validator(tensorgate::FormatChoice::auto_detect, name); };
    const std::string want = render(check_detected(name, bytes));
    for (std::size_t a = 1; a < std::min<std::size_t>(bytes.size(), 60); ++a)
      ASSERT_EQ(render(feed_split(make, bytes, {a}, a % 2 == 0)), want) << name << " cut " << a;
  }
}

TEST(KindDetect, WeightNames) {
  for (const std::string name : {"a.safetensors", "a.gguf", "a.bin", "a.pt", "a.pth", "a.ckpt", "a.pkl", "a.pickle", "a.npy",
                                 "a.npz", "A.BIN"})
    EXPECT_TRUE(tensorgate::is_weight_name(name)) << name;
  for (const std::string name : {"README.md", "config.json", ".gitattributes", "tokenizer.model", "bin", ".pt"})
    EXPECT_FALSE(tensorgate::is_weight_name(name)) << name;
}

}  // namespace

namespace {

// The last tensor of a safetensors file holds `data`.
std::string st_holding(const std::string& data) {
  return st_file(R"({"w":{"dtype":"U8","shape":[)" + std::to_string(data.size()) + R"(],"data_offsets":[0,)" +
                     std::to_string(data.size()) + "]}}",
                 data);
}

std::string le_bytes(std::uint64_t v, int width) {
  std::string out;
  for (int i = 0; i < width; ++i) out += static_cast<char>((v >> (8 * i)) & 0xff);
  return out;
}

// As Python's zipfile searches: the last 65,536 + 22 bytes, zip64 records between the central
// directory and the end record, disk counts ignored.
TEST(KindDetect, ZipAtTheEndAsZipfileSearchesForIt) {
  ZipOptions zip64;
  zip64.zip64_end = true;
  const std::string torch64 = build_zip(torch_entries({}, "archive", kEvilPickle), zip64);
  auto r = check_detected("m.safetensors", st_holding(torch64));
  EXPECT_EQ(errors_of(r), "FK.polyglot");
  // 65,536 bytes after the end record: the farthest zipfile looks.
  const std::string zip = torch_archive({}, "archive", kEvilPickle);
  std::string far = st_holding(zip + std::string(65536, '\x01'));
  r = check_detected("m.safetensors", far);
  EXPECT_EQ(errors_of(r), "FK.polyglot");
  EXPECT_EQ(r.findings.back().offset, far.size() - 65558);
  EXPECT_EQ(errors_of(check_detected("m.safetensors", st_holding(zip + std::string(65537, '\x01')))), "");
  // Disk counts that differ: zipfile reads the archive all the same.
  std::string counts = zip;
  counts[counts.size() - 22 + 8] ^= 1;
  EXPECT_EQ(errors_of(check_detected("m.safetensors", st_holding(counts))), "FK.polyglot");
  // An end record whose directory lies before the last bytes cannot be confirmed: with counts
  // as writers write them it is an error as before; otherwise a warning that says so.
  const std::string lone = std::string("PK\x05\x06\0\0\0\0", 8) + le_bytes(2, 2) + le_bytes(2, 2) +
                           le_bytes(200000, 4) + le_bytes(0, 4) + le_bytes(0, 2);
  EXPECT_EQ(errors_of(check_detected("m.safetensors", st_holding(std::string(300000, '\x01') + lone))), "FK.polyglot");
  std::string odd = lone;
  odd[8] = 1;
  r = check_detected("m.safetensors", st_holding(std::string(300000, '\x01') + odd));
  EXPECT_EQ(errors_of(r), "");
  EXPECT_EQ(warnings_of(r), "FK.zip-end-unverified");
}

// What the content says, even when it breaks at once.
TEST(KindDetect, BrokenPicklesAndHeadersKeepTheirFamily) {
  for (const std::string& p : {std::string("\x80\x04h\x05.", 5), std::string("\x80\x02\x01", 3),
                               std::string("\x80\x03" "0.", 4), std::string("\x80\x07N.", 4)}) {
    const auto r = check_detected("x.bin", p);
    EXPECT_EQ(r.format, Format::pickle) << errors_of(r);
    EXPECT_TRUE(r.has("PK")) << errors_of(r);
    EXPECT_FALSE(r.has("FK.unknown"));
  }
  // A '{' after a length past the bound: a safetensors file whose length is wrong.
  const auto r = check_detected("x.safetensors", le_bytes(1ull << 60, 8) + R"({"w":{"dtype":"F32"}})");
  EXPECT_EQ(r.format, Format::safetensors);
  EXPECT_TRUE(r.has("ST1")) << errors_of(r);
}

// The formats are one list (tensorgate/formats.def): every choice's name parses back to it, names
// a model format, and is what docs/openapi.json offers for format= (the web page's choices).
TEST(KindDetect, TheFormatsAreOneListEverywhere) {
  std::vector<std::string> names;
  std::stringstream joined(tensorgate::format_choice_names(","));
  for (std::string n; std::getline(joined, n, ',');) names.push_back(n);
  ASSERT_GE(names.size(), 7u);
  EXPECT_EQ(names.front(), "auto");
  for (std::size_t i = 1; i < names.size(); ++i) {
    const auto choice = tensorgate::parse_format_choice(names[i]);
    ASSERT_TRUE(choice) << names[i];
    EXPECT_EQ(tensorgate::format_choice_name(*choice), names[i]);
    const auto f = static_cast<Format>(static_cast<unsigned char>(*choice) - 1);  // the same order
    EXPECT_EQ(tensorgate::format_name(f), names[i]);
    EXPECT_TRUE(tensorgate::is_model_format(f)) << names[i];
  }
  EXPECT_FALSE(tensorgate::is_model_format(Format::lfs_pointer));
  EXPECT_FALSE(tensorgate::is_model_format(Format::unknown));
  EXPECT_FALSE(tensorgate::parse_format_choice("lfs-pointer"));

  std::ifstream in(std::string(TG_SOURCE_DIR) + "/docs/openapi.json");
  ASSERT_TRUE(in) << "docs/openapi.json";
  const std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t param = doc.find("\"name\": \"format\"");
  ASSERT_NE(param, std::string::npos);
  const std::size_t open = doc.find('[', doc.find("\"enum\"", param));
  const std::size_t close = doc.find(']', open);
  std::vector<std::string> offered;
  for (std::size_t q = doc.find('"', open); q < close; q = doc.find('"', q + 1)) {
    const std::size_t end = doc.find('"', q + 1);
    offered.push_back(doc.substr(q + 1, end - q - 1));
    q = end;
  }
  EXPECT_EQ(offered, names);
}

}  // namespace

