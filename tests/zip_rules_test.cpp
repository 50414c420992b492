// Every ZP rule in both verdicts, and the published ways of showing a loader and a scanner two
// different files: local and central names that differ (CVE-2025-1944), the encrypted flag on
// plain data (CVE-2025-1945).
#include <gtest/gtest.h>

#include "pickle_builder.hpp"
#include "stream_check.hpp"
#include "tensorgate/validator.hpp"
#include "tensorgate/zip.hpp"
#include "zip_builder.hpp"

namespace {

using namespace tgtest;

tensorgate::Report zip_report(std::string_view bytes, const tensorgate::Limits& limits = {}) {
  return check_stream([&] { return tensorgate::make_zip_validator(limits); }, bytes);
}

const std::vector<TorchTensor> kTensors = {{"w", "FloatStorage", {4, 2}}};
const std::string kEvil = PickleBuilder().proto(2).call("os", "system", "id").stop().bytes();

TEST(ZipRules, Truncated) {
  const std::string zip = torch_archive(kTensors);
  for (std::size_t cut = 1; cut + 1 < zip.size(); cut += 11) {
    const auto r = zip_report(zip.substr(0, cut));
    EXPECT_FALSE(r.valid) << cut;
    EXPECT_TRUE(r.has("ZP.truncated") || r.has("ZP.descriptor") || r.has("PK")) << cut << ": " << errors_of(r);
  }
  EXPECT_EQ(errors_of(zip_report(zip.substr(0, zip.size() - 22))), "ZP.truncated");  // no end record
}

TEST(ZipRules, MalformedRecords) {
  std::string junk = build_zip({{"a", "x", false, false, true, false, 0}});
  junk.insert(32, "JUNK");  // where the next record's signature must be
  EXPECT_EQ(errors_of(zip_report(junk)), "ZP.record");
  // An extra field that overruns its record.
  std::string zip = build_zip({{"a", "x", false, false, true, false, 0}});
  zip[28] = 9;  // extra length 9, and nothing there but the data
  EXPECT_TRUE(zip_report(zip).has("ZP.record"));
  EXPECT_EQ(errors_of(zip_report(build_zip({{"a", "x"}}))), "");
}

TEST(ZipRules, UnsafeNames) {
  for (const std::string name : {"../evil.bin", "/abs/x", "C:x", "a\\b", "a/../../b"})
    EXPECT_EQ(errors_of(zip_report(build_zip({{name, "x"}}))), "ZP.unsafe-name") << name;
  EXPECT_EQ(errors_of(zip_report(build_zip({{"a/b..c/d.e", "x"}}))), "");
}

TEST(ZipRules, EncryptedFlagOnPlainDataIsScannedAnyway) {  // CVE-2025-1945
  auto entries = torch_entries(kTensors, "archive", kEvil);
  entries[0].local_flags = 1;
  entries[0].central_flags = 1;
  const auto both = zip_report(build_zip(entries));
  EXPECT_EQ(errors_of(both), "ZP.encrypted PK.dangerous-global ZP.encrypted");
  entries[0].central_flags = 0;  // in the local header alone: PyTorch loads the plain bytes
  const auto local = zip_report(build_zip(entries));
  EXPECT_TRUE(local.has("ZP.encrypted"));
  EXPECT_TRUE(local.has("PK.dangerous-global"));
  EXPECT_TRUE(local.has("ZP.central-mismatch"));
}

TEST(ZipRules, CompressionMethod) {
  ZipEntrySpec e{"a/b", "xyz"};
  e.method = 12;  // bzip2
  e.descriptor = false;
  EXPECT_EQ(errors_of(zip_report(build_zip({e}))), "ZP.method");
  e.descriptor = true;  // and its end cannot be found
  EXPECT_EQ(errors_of(zip_report(build_zip({e}))), "ZP.method ZP.record");
}

TEST(ZipRules, InflateErrors) {
  ZipEntrySpec e{"a/b", std::string(100, 'q'), true, false};
  e.align = 0;
  std::string zip = build_zip({e});
  zip[33] = static_cast<char>(0xff);  // the first deflate block header: the reserved block type
  EXPECT_TRUE(zip_report(zip).has("ZP.inflate"));
}

TEST(ZipRules, Sizes) {
  ZipEntrySpec deflated{"a/b", std::string(300, 'q'), true, false};
  deflated.crc = 1234;
  EXPECT_EQ(errors_of(zip_report(build_zip({deflated}))), "ZP.size");
  ZipEntrySpec pkl{"a/data.pkl", PickleBuilder().proto(2).op('N').stop().bytes()};
  pkl.crc = 99;
  EXPECT_EQ(errors_of(zip_report(build_zip({pkl}))), "ZP.size");
  pkl.crc.reset();
  EXPECT_EQ(errors_of(zip_report(build_zip({pkl}))), "");
  // A stored entry whose two recorded sizes differ.
  std::string zip = build_zip({{"a/b", "hello", false, false, true, false, 0}});
  zip[22] = 6;  // uncompressed size 6
  EXPECT_TRUE(zip_report(zip).has("ZP.size"));
}

TEST(ZipRules, StoredEntryWithoutADescriptorItsEndCannotBeFound) {
  ZipEntrySpec e{"a/b", "data"};
  e.descriptor_signature = false;  // a stored entry's end is only found by the signed form
  const auto r = zip_report(build_zip({e}));
  EXPECT_EQ(errors_of(r), "ZP.descriptor");
}

TEST(ZipRules, EntryTooLarge) {
  tensorgate::Limits limits;
  limits.zip.max_entry_bytes = 100;
  EXPECT_EQ(errors_of(zip_report(build_zip({{"a/b", std::string(101, 'x')}}), limits)), "ZP.entry-too-large");
  EXPECT_EQ(errors_of(zip_report(build_zip({{"a/b", std::string(100, 'x')}}), limits)), "");
}

TEST(ZipRules, LocalAndCentralNamesDiffer) {  // CVE-2025-1944
  auto entries = torch_entries(kTensors);
  entries[0].data = kEvil;
  entries[0].name = "archive/harmless.pkl";  // what a streaming scanner reads
  entries[0].central_name = "archive/data.pkl";  // what torch.load reads
  const auto r = zip_report(build_zip(entries));
  EXPECT_TRUE(r.has("ZP.central-mismatch"));
  EXPECT_TRUE(r.has("PK.dangerous-global"));
  EXPECT_NE(message_of(r, "ZP.central-mismatch").find("archive/harmless.pkl"), std::string::npos);
}

TEST(ZipRules, CentralSizesMethodsAndOffsets) {
  auto entries = torch_entries(kTensors);
  entries[2].central_size = 7;
  EXPECT_EQ(errors_of(zip_report(build_zip(entries))), "ZP.central-mismatch");
  entries = torch_entries(kTensors);
  entries[1].central_offset = 3;  // an entry only loaders see
  EXPECT_EQ(errors_of(zip_report(build_zip(entries))), "ZP.central-missing ZP.central-missing");
  entries = torch_entries(kTensors);
  entries[3].in_central = false;  // an entry only scanners see
  const auto hidden = zip_report(build_zip(entries));
  EXPECT_EQ(errors_of(hidden), "ZP.central-missing");
  EXPECT_NE(message_of(hidden, "ZP.central-missing").find("archive/version"), std::string::npos);
}

TEST(ZipRules, EndRecord) {
  ZipOptions o;
  o.entries = 9;
  EXPECT_EQ(errors_of(zip_report(build_zip({{"a/b", "x"}}, o))), "ZP.end-record");
  o = {};
  o.trailing = "after the end";
  EXPECT_EQ(errors_of(zip_report(build_zip({{"a/b", "x"}}, o))), "ZP.end-record");
  o = {};
  o.comment = "a comment is part of the record";
  EXPECT_EQ(errors_of(zip_report(build_zip({{"a/b", "x"}}, o))), "");
}

TEST(ZipRules, DuplicateNames) {
  EXPECT_EQ(errors_of(zip_report(build_zip({{"a/b", "x"}, {"a/b", "y"}}))), "ZP.duplicate-name");
}

TEST(ZipRules, AmbiguousArchives) {
  auto two = torch_entries(kTensors);
  auto other = torch_entries(kTensors, "other", kEvil);
  two.insert(two.end(), other.begin(), other.end());
  const auto r = zip_report(build_zip(two));
  EXPECT_TRUE(r.has("ZP.ambiguous-archive"));
  EXPECT_TRUE(r.has("PK.dangerous-global"));  // the second data.pkl is scanned too
  auto outside = torch_entries(kTensors);
  outside.push_back({"elsewhere/x", "y"});
  EXPECT_EQ(errors_of(zip_report(build_zip(outside))), "ZP.ambiguous-archive");
  // A zip without data.pkl (an .npz, a .keras) has no archive folder to keep to.
  EXPECT_EQ(errors_of(zip_report(build_zip({{"a/x", "1"}, {"b/y", "2"}}))), "");
}

TEST(ZipRules, FakeDescriptorInsideTheData) {
  // Stored data that holds a descriptor recording exactly the bytes before it: a streaming
  // walker ends the entry there; the central directory (what loaders read) says otherwise.
  std::string data = "0123456789";
  data += std::string("PK\x07\x08\0\0\0\0\x0a\0\0\0\x0a\0\0\0", 16) + "rest of the real data";
  auto entries = torch_entries({});
  entries[0].data = PickleBuilder().proto(2).op('}').stop().bytes();  // no storage hints
  entries.insert(entries.begin() + 1, ZipEntrySpec{"archive/data/0", data});
  const auto r = zip_report(build_zip(entries));
  EXPECT_FALSE(r.valid);
}

}  // namespace

namespace {

const std::string kProtocol0Evil = "cos\nsystem\n(S'id'\ntR.";

// PyTorch's reader finds records by names compared without ASCII case (miniz, flags 0).
TEST(ZipRules, NamesAsPyTorchLooksThemUp) {
  // data.PKL is the archive's data.pkl: scanned, even as a protocol 0 pickle.
  auto entries = torch_entries(kTensors);
  entries[0] = {"archive/Data.PKL", kProtocol0Evil};
  auto r = zip_report(build_zip(entries));
  EXPECT_EQ(errors_of(r), "PK.dangerous-global");
  ASSERT_TRUE(r.summary.get<tensorgate::ZipSummary>()->pytorch_archive.has_value());
  // A malicious DATA.PKL beside a benign data.pkl: PyTorch may read either.
  entries = torch_entries(kTensors);
  entries.insert(entries.begin() + 1, ZipEntrySpec{"archive/DATA.PKL", kEvil});
  r = zip_report(build_zip(entries));
  EXPECT_TRUE(r.has("PK.dangerous-global"));
  EXPECT_TRUE(r.has("ZP.ambiguous-archive"));
  EXPECT_TRUE(r.has("ZP.duplicate-name"));
  // Names that differ in case elsewhere, outside a PyTorch archive, are two entries to zipfile.
  r = zip_report(build_zip({{"A.npy", npy_file("<f4", {1}, std::string(4, '\0'))},
                            {"a.npy", npy_file("<f4", {1}, std::string(4, '\0'))}}));
  EXPECT_TRUE(r.valid) << errors_of(r);
}

TEST(ZipRules, EveryEntryThatIsAPickleByContentIsScanned) {
  // Protocols 0 and 1 have no PROTO: their first opcodes say it, whatever the name.
  EXPECT_EQ(errors_of(zip_report(build_zip({{"notes.txt", kProtocol0Evil}}))), "PK.dangerous-global");
  const std::string protocol1 = PickleBuilder().global("os", "system").mark().binstring("id").tuple().reduce().stop().bytes();
  EXPECT_EQ(errors_of(zip_report(build_zip({{"x/y", protocol1, true}}))), "PK.dangerous-global");
  // A payload that breaks the stream after it has run is still found.
  EXPECT_EQ(errors_of(zip_report(build_zip({{"notes.txt", "cos\nsystem\n(S'id'\ntR\xff\xff"}}))),
            "PK.dangerous-global PK.unknown-opcode");
  // Data whose first bytes happen to run as opcodes (a run of 'N', NONE) and never import or
  // stop is data, not a broken pickle.
  // Nor is one that never touches a global: "N." is a whole pickle and an fp16 weight of 0.0945.
  const auto r = zip_report(build_zip({{"archive/data/0", std::string(4096, 'N')},
                                       {"t.txt", "(a text that is no pickle"},
                                       {"archive/data/1", "N." + std::string(100, '\x01')}}));
  EXPECT_TRUE(r.valid) << errors_of(r);
  EXPECT_EQ(r.summary.get<tensorgate::ZipSummary>()->pickles.size(), 0u);
}

TEST(ZipRules, ZipBombs) {
  tensorgate::Limits limits;
  limits.zip.bomb_floor_bytes = 1 << 20;
  limits.zip.bomb_ratio = 50;  // below the floor over the first 16 KiB slice: the floor decides
  const std::string zeros(3 << 20, '\0');
  // Inflating: found by the ratio, the rest skipped by its recorded size...
  ZipEntrySpec sized{"a/b", zeros, true, false};
  auto r = zip_report(build_zip({sized}), limits);
  EXPECT_EQ(errors_of(r), "ZP.bomb");
  // ...or, without recorded sizes (bit 3), the walk stops there.
  ZipEntrySpec unsized{"a/b", zeros, true, true};
  EXPECT_EQ(errors_of(zip_report(build_zip({unsized}), limits)), "ZP.bomb");
  // Below the floor or the ratio, an entry is inflated as usual.
  std::string mixed;
  std::uint64_t x = 88172645463325252ull;  // xorshift64: data deflate cannot shrink
  for (std::size_t i = 0; i < (3u << 20); ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    mixed += static_cast<char>(x >> 56);
  }
  EXPECT_EQ(errors_of(zip_report(build_zip({{"a/b", mixed, true, false}}), limits)), "");
  limits.zip.bomb_floor_bytes = 4 << 20;
  EXPECT_EQ(errors_of(zip_report(build_zip({sized}), limits)), "");
}

}  // namespace
