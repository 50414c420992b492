// Tar archives as Python's tarfile reads them (FK.tar-header, FK.tar-member): torch.load's
// legacy tar layout in both verdicts, members scanned by content, extended headers applied as
// tarfile applies them, pickle/tar polyglots, every split giving the same report.
#include <gtest/gtest.h>

#include "pickle_builder.hpp"
#include "stream_check.hpp"
#include "tar_builder.hpp"
#include "tensorgate/tar.hpp"
#include "tensorgate/validator.hpp"
#include "zip_builder.hpp"

using tensorgate::TarSummary;

namespace {

using namespace tgtest;

tensorgate::Report tar_report(std::string_view bytes) {
  return check_stream([] { return tensorgate::make_tar_validator(); }, bytes);
}

const std::string kPayload = PickleBuilder().proto(2).call("os", "system", "id").stop().bytes();

TEST(Tar, LegacyTorchLayoutIsReadAsItsLoaderReadsIt) {
  const auto r = tar_report(legacy_torch_tar({{2, 3}, {4}}));
  EXPECT_TRUE(r.valid) << errors_of(r);
  EXPECT_EQ(warnings_of(r), "");
  ASSERT_TRUE(r.summary.get<TarSummary>() != nullptr);
  EXPECT_TRUE(r.summary.get<TarSummary>()->torch_legacy);
  EXPECT_EQ(r.summary.get<TarSummary>()->members, 4u);
  ASSERT_EQ(r.summary.get<TarSummary>()->member_list.size(), 4u);
  EXPECT_EQ(r.summary.get<TarSummary>()->member_list[2].name, "storages");
  EXPECT_EQ(r.summary.get<TarSummary>()->member_list[2].content, "pickle");
  // sys_info and pickle by content, storages and tensors by their layout.
  EXPECT_EQ(r.summary.get<TarSummary>()->pickles.size(), 4u);
  // Detected by content, under a checkpoint's name, with no FK.extension.
  const auto d = check_detected("pytorch_model.bin", legacy_torch_tar({{2, 3}}));
  EXPECT_EQ(d.format, tensorgate::Format::tar);
  EXPECT_TRUE(d.valid) << errors_of(d);
  EXPECT_EQ(warnings_of(d), "");
}

TEST(Tar, APayloadBetweenTheStoragesIsFound) {
  // torch reads the count, then a pickle it takes for a storage's: the payload runs there.
  const auto r = tar_report(legacy_torch_tar({{2}}, kPayload));
  EXPECT_EQ(errors_of(r), "PK.dangerous-global FK.tar-member");
  // The storage bytes are skipped by their count: storage data that looks like opcodes is data.
  const auto clean = tar_report(build_tar({{"storages", legacy_storages_member({{64}})}}));
  EXPECT_TRUE(clean.valid) << errors_of(clean);
}

TEST(Tar, TheMembersTheLoaderUnpicklesAreScanned) {
  EXPECT_EQ(errors_of(tar_report(build_tar({{"pickle", kPayload}}))), "PK.dangerous-global");
  // "pickle" is unpickled whatever its first bytes: a stream that breaks at once is still read.
  EXPECT_EQ(errors_of(tar_report(build_tar({{"pickle", "\x01\x02"}}))), "PK.unknown-opcode");
  const std::string tensors = legacy_tensors_member({{2, 2}}) + kPayload;
  // (Read as the next tensor's pickle, whose sizes the member then lacks.)
  EXPECT_EQ(errors_of(tar_report(build_tar({{"tensors", tensors}}))), "PK.dangerous-global FK.tar-member");
}

TEST(Tar, EveryMemberIsScannedByContent) {
  // A protocol 0 pickle under a text file's name.
  const std::string protocol0 = "cos\nsystem\n(S'id'\ntR.";
  EXPECT_EQ(errors_of(tar_report(build_tar({{"notes.txt", protocol0}}))), "PK.dangerous-global");
  EXPECT_EQ(errors_of(tar_report(build_tar({{"dir/weights.bin", kPayload}}))), "PK.dangerous-global");
  // Text and raw data are data.
  const auto r = tar_report(build_tar({{"README", "Some text.\n"}, {"blob", std::string(700, '\x07')}}));
  EXPECT_TRUE(r.valid) << errors_of(r);
  ASSERT_EQ(r.summary.get<TarSummary>()->member_list.size(), 2u);
  EXPECT_EQ(r.summary.get<TarSummary>()->member_list[1].content, "data");
}

TEST(Tar, ExtendedHeadersAreAppliedAsTarfileAppliesThem) {
  // A pax size replaces the header's: the member's data is what the pax record says.
  TarMemberSpec hidden{"x", kPayload};
  hidden.header_size = 0;
  hidden.pax = {{"size", std::to_string(kPayload.size())}};
  EXPECT_EQ(errors_of(tar_report(build_tar({hidden}))), "PK.dangerous-global");
  // A pax path and a GNU long name name the member.
  TarMemberSpec named{"a", legacy_storages_member({{2}})};
  named.pax = {{"path", "storages"}};
  auto r = tar_report(build_tar({named, {"tensors", legacy_tensors_member({{2}})}}));
  EXPECT_TRUE(r.valid) << errors_of(r);
  EXPECT_EQ(r.summary.get<TarSummary>()->member_list[0].name, "storages");
  TarMemberSpec longname{std::string(150, 'd') + "/pickle", kPayload};
  longname.gnu_long_name = true;
  r = tar_report(build_tar({longname}));
  EXPECT_EQ(errors_of(r), "PK.dangerous-global");
  EXPECT_EQ(r.summary.get<TarSummary>()->member_list[0].name.size(), 157u);
  // A global pax header that sets size is refused: data and layout would disagree.
  const std::string records = pax_records({{"size", "512"}});
  const std::string global = tar_header("g", static_cast<std::int64_t>(records.size()), 'g') + records +
                             std::string(512 - records.size(), '\0') + build_tar({{"a", "x"}});
  EXPECT_EQ(errors_of(tar_report(global)), "FK.tar-header");
  // A malformed pax record.
  TarMemberSpec bad{"a", "x"};
  bad.pax = {{"path", "b"}};
  std::string bytes = build_tar({bad});
  bytes[512] = '8';  // "8 path=b\n": the record's last byte is no newline
  EXPECT_EQ(errors_of(tar_report(bytes)), "FK.tar-header");
}

TEST(Tar, WhatTheLoaderReadsMustBeOneRegularFile) {
  EXPECT_EQ(errors_of(tar_report(build_tar({{"storages", "", '2', "/etc/passwd"}}))), "FK.tar-member");
  EXPECT_EQ(errors_of(tar_report(build_tar({{"pickle", PickleBuilder().proto(2).op(']').stop().bytes()},
                                            {"pickle", PickleBuilder().proto(2).op('}').stop().bytes()}}))),
            "FK.tar-member");
  // A storage whose count runs past the member's end.
  std::string storages = legacy_storages_member({{4}});
  storages.resize(storages.size() - 10);
  EXPECT_EQ(errors_of(tar_report(build_tar({{"storages", storages}}))), "FK.tar-member");
  // Links and directories elsewhere are ordinary.
  const auto r = tar_report(build_tar({{"d/", "", '5'}, {"l", "", '2', "d"}}));
  EXPECT_TRUE(r.valid) << errors_of(r);
  EXPECT_EQ(r.summary.get<TarSummary>()->member_list[0].type, "directory");
  EXPECT_EQ(r.summary.get<TarSummary>()->member_list[0].name, "d");
}

TEST(Tar, WhatTensorgateDoesNotReadIsRefused) {
  // GNU sparse members, and pax records of GNU's sparse formats.
  EXPECT_EQ(errors_of(tar_report(build_tar({{"s", "abc", 'S'}}))), "FK.tar-header");
  TarMemberSpec sparse{"c", "x"};
  sparse.pax = {{"GNU.sparse.size", "1"}};
  EXPECT_EQ(errors_of(tar_report(build_tar({sparse}))), "FK.tar-header");
  // A pax size in digits of another script: Python's int() reads them, a scanner may not.
  TarMemberSpec arabic{"a", "xy"};
  arabic.pax = {{"size", "\xd9\xa2"}};
  EXPECT_EQ(errors_of(tar_report(build_tar({arabic}))), "FK.tar-header");
  // A pax size int() refuses is 0 to tarfile: the data that follows is read as the next header.
  TarMemberSpec hex{"a", kPayload};
  hex.pax = {{"size", "0x14"}};
  EXPECT_EQ(errors_of(tar_report(build_tar({hex}))), "FK.tar-header");
}

TEST(Tar, MalformedArchives) {
  const std::string good = build_tar({{"a", "abc"}, {"b", "def"}});
  // A later header whose checksum does not match: tarfile stops reading members there.
  std::string bad = good;
  bad[1024 + 148] ^= 1;
  EXPECT_EQ(errors_of(tar_report(bad)), "FK.tar-header");
  // Cut inside a member's data, its padding, a header.
  EXPECT_EQ(errors_of(tar_report(good.substr(0, 514))), "FK.tar-header");
  EXPECT_EQ(errors_of(tar_report(good.substr(0, 1000))), "FK.tar-header");
  EXPECT_EQ(errors_of(tar_report(good.substr(0, 1100))), "FK.tar-header");
  // An end at a block boundary without the zero blocks is an end.
  const auto ended = tar_report(good.substr(0, 2048));
  EXPECT_TRUE(ended.valid) << errors_of(ended);
  // A negative (base-256) size.
  EXPECT_EQ(errors_of(tar_report(tar_header("a", -512, '0') + std::string(1024, '\0'))), "FK.tar-header");
  // Bytes after the first block of zeros (the second one included) are counted, not read.
  const auto trailing = tar_report(good + kPayload);
  EXPECT_TRUE(trailing.valid) << errors_of(trailing);
  EXPECT_EQ(trailing.summary.get<TarSummary>()->trailing_bytes, 512 + kPayload.size());
}

TEST(Tar, TarfilesHeadersWhateverTheMagic) {
  // No "ustar" magic and an octal checksum with spaces: still a tar to tarfile.
  std::string v7 = build_tar({{"pickle", kPayload}});
  v7.replace(257, 8, std::string(8, '\0'));
  unsigned sum = 256;
  for (std::size_t i = 0; i < 512; ++i)
    if (i < 148 || i >= 156) sum += static_cast<unsigned char>(v7[i]);
  char field[9];
  std::snprintf(field, sizeof field, " %o ", sum);
  v7.replace(148, 8, std::string(field) + std::string(8 - std::string(field).size(), ' '));
  const auto r = check_detected("model.pt", v7);
  EXPECT_EQ(r.format, tensorgate::Format::tar);
  EXPECT_EQ(errors_of(r), "PK.dangerous-global");
  // A checksum that does not match is no tar: the content decides otherwise.
  v7[148 + 1] = v7[148 + 1] == '7' ? '6' : '7';
  EXPECT_NE(check_detected("model.pt", v7).format, tensorgate::Format::tar);
}

TEST(Tar, PolyglotsWithATar) {
  // A tar whose first bytes also run as a pickle: pickle loaders and torch.load read two things.
  const std::string name = "cos\nsystem\n(S'id'\ntR.";
  const auto r = check_detected("model.pkl", build_tar({{name, "x"}}));
  EXPECT_EQ(r.format, tensorgate::Format::pickle);
  EXPECT_EQ(errors_of(r), "PK.dangerous-global FK.polyglot");
  EXPECT_NE(message_of(r, "FK.polyglot").find("tar"), std::string::npos);
  // As a tar (the format forced), the same file begins as a pickle.
  const auto t = tar_report(build_tar({{"(lp0\n.", "x"}}));
  EXPECT_TRUE(t.valid) << errors_of(t);  // the tar itself: its pickle view is the detector's
  EXPECT_EQ(errors_of(check_detected("m.pt", build_tar({{"(lp0\n.", "x"}}))), "FK.polyglot");
  // A zip whose first block is also a tar header.
  std::string zip = build_zip({{"archive/data.pkl", PickleBuilder().proto(2).op(']').stop().bytes()},
                               {"archive/data/0", std::string(2000, 'x')}});
  const std::string head = tar_header(zip.substr(0, 100), 0, '0');
  zip.replace(0, std::min<std::size_t>(zip.size(), 512), head.substr(0, std::min<std::size_t>(zip.size(), 512)));
  const auto z = check_detected("model.pt", zip);
  EXPECT_NE(errors_of(z).find("FK.polyglot"), std::string::npos) << errors_of(z);
}

}  // namespace
