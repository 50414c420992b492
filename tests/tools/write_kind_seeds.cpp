// Writes the seed corpora of pickle_fuzzer, zip_fuzzer and tar_fuzzer (fuzz/README.md) from the
// tests' builders: benign and hostile pickles of every protocol and each published scanner
// bypass, torch.save archives straight and twisted, deflate, zip64, .npy entries, names that
// differ in case, torch.load's legacy tar layout and tarfile's extended headers. Each seed starts
// with the split header of fuzz_support.hpp (a count of cuts, then two bytes per cut).
//   write_kind_seeds corpus/pickle_fuzzer corpus/zip_fuzzer corpus/tar_fuzzer
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "pickle_builder.hpp"
#include "tar_builder.hpp"
#include "zip_builder.hpp"

using namespace tgtest;

namespace {

using Seeds = std::vector<std::pair<std::string, std::string>>;

Seeds pickle_seeds() {
  const std::vector<TorchTensor> tensors{{"w", "FloatStorage", {2, 3}}, {"b", "HalfStorage", {3}}};
  Seeds s;
  s.emplace_back("proto0_text", PickleBuilder().mark().line('I', "1").line('F', "2.5").line('S', "'a'")
                                    .line('V', "b").op('l').op('.').bytes());
  s.emplace_back("proto1_dict", PickleBuilder().op('}').op('(').binstring("k").integer(300).op('u').op('.').bytes());
  s.emplace_back("proto2_set", PickleBuilder().proto(2).global("__builtin__", "set").op(']').integer(7).op('a')
                                   .tuple_n(1).reduce().stop().bytes());
  s.emplace_back("proto3_bytes", PickleBuilder().proto(3).bytes("raw").put(0).get(0).tuple_n(2).stop().bytes());
  s.emplace_back("proto4_frame", PickleBuilder().proto(4).frame(5).str("x").memoize().stop().bytes());
  s.emplace_back("proto5_bytearray", PickleBuilder().proto(5).raw(std::string("\x96\x03\x00\x00\x00\x00\x00\x00\x00", 9) + "abc")
                                         .raw("\x97\x98").stop().bytes());
  s.emplace_back("state_dict", state_dict_pickle(tensors));
  s.emplace_back("legacy_torch", legacy_torch_stream(tensors));
  s.emplace_back("os_system", PickleBuilder().proto(2).call("os", "system", "id").stop().bytes());
  s.emplace_back("stack_global_memo", PickleBuilder().proto(4).str("os").memoize().str("system").memoize()
                                          .get(0).get(1).stack_global().str("id").tuple_n(1).reduce().stop().bytes());
  s.emplace_back("inst", PickleBuilder().mark().line('S', "'id'").inst("os", "system").stop().bytes());
  s.emplace_back("obj", PickleBuilder().mark().global("os", "system").line('S', "'id'").op('o').stop().bytes());
  s.emplace_back("getattr_walk", PickleBuilder().proto(2).global("builtins", "getattr").global("builtins", "__import__")
                                     .str("os").tuple_n(1).reduce().str("system").tuple_n(2).reduce().stop().bytes());
  s.emplace_back("pip_main", PickleBuilder().proto(2).call("pip", "main", "install", true).stop().bytes());
  s.emplace_back("newobj_build", PickleBuilder().proto(2).global("collections", "OrderedDict").tuple_n(0).op('\x81')
                                     .op('}').build().stop().bytes());
  s.emplace_back("two_pickles", PickleBuilder().proto(2).op('N').stop().proto(2).call("os", "system", "id").stop().bytes());
  s.emplace_back("text_stack_global", PickleBuilder().line('V', "\\u006fs").line('S', "'sys\\x74em'").stack_global()
                                          .stop().bytes());
  s.emplace_back("truncated", PickleBuilder().proto(2).str("abc").bytes());
  s.emplace_back("bad_proto", PickleBuilder().raw("\x80\x06").stop().bytes());
  s.emplace_back("long_string", PickleBuilder().proto(3).str(std::string(300, 's')).binunicode8("u8").stop().bytes());
  s.emplace_back("long_binput", PickleBuilder().proto(2).op('N').put(100000).get(100000).stop().bytes());
  // Past the fuzzer's small pool: strings appended to a list and tuples popped are collected,
  // the memoised "os" survives, and STACK_GLOBAL still finds it after the renumbering.
  PickleBuilder many;
  many.proto(4).str("os").memoize().op(']');
  for (int i = 0; i < 40; ++i) {
    const std::string text(100, static_cast<char>('a' + i % 26));
    many.str(text + std::to_string(i)).op('a').str("k").str(std::to_string(i)).tuple_n(2).op('0');
  }
  s.emplace_back("collected_strings", many.get(0).str("system").stack_global().stop().bytes());
  s.emplace_back("stack_global_ints", PickleBuilder().proto(4).integer(1).integer(2).stack_global().stop().bytes());
  // Shapes: a dotted name (an attribute walk through a module's alias of os), an alias alone,
  // a leaf rule (a name no list holds), an allowed numpy ctor handed os.system, a far memo
  // index before a MEMOIZE run, and a hashed entry the dense run reaches.
  s.emplace_back("dotted_alias_walk", PickleBuilder().proto(4).str("tempfile").str("_os.system").stack_global()
                                          .str("id").tuple_n(1).reduce().stop().bytes());
  s.emplace_back("module_alias", PickleBuilder().proto(2).global("collections", "_sys").stop().bytes());
  s.emplace_back("leaf_rule", PickleBuilder().proto(2).call("somelib.shell", "run_command", "id").stop().bytes());
  s.emplace_back("numpy_generator_ctor", PickleBuilder().proto(2).global("numpy.random._pickle", "__generator_ctor")
                                             .str("id").global("posix", "system").tuple_n(2).reduce().stop().bytes());
  PickleBuilder far;
  far.proto(4).str("os").put(0x80000000u).op('N');
  for (int i = 0; i < 100; ++i) far.memoize();
  s.emplace_back("memo_far_index", far.get(0x80000000u).get(50).stop().bytes());
  PickleBuilder reach;
  reach.proto(4).str("os").put(100).op('N');
  for (int i = 0; i < 60; ++i) reach.memoize();
  s.emplace_back("memo_dense_reaches", reach.str("system").put(101).op('0').op('0').get(100).get(101).stack_global()
                                           .stop().bytes());
  return s;
}

Seeds zip_seeds() {
  const std::vector<TorchTensor> tensors{{"w", "FloatStorage", {2, 3}}, {"b", "FloatStorage", {3}}};
  Seeds s;
  s.emplace_back("torch_archive", torch_archive(tensors));
  s.emplace_back("torch_archive_os_system",
                 torch_archive(tensors, "archive", PickleBuilder().proto(2).call("os", "system", "id").stop().bytes()));
  s.emplace_back("deflate", build_zip({{"a.txt", std::string(200, 'a'), true, false},
                                       {"b/data.pkl", PickleBuilder().proto(2).op('N').stop().bytes(), true, false}}));
  ZipEntrySpec z64{"archive/data.pkl", state_dict_pickle(tensors)};
  z64.zip64 = true;
  s.emplace_back("zip64", build_zip({z64}, ZipOptions{{}, {}, {}, true}));
  ZipEntrySpec renamed{"archive/data.pkl", state_dict_pickle(tensors)};
  renamed.central_name = "archive/other.pkl";
  s.emplace_back("central_name_differs", build_zip({renamed}));
  ZipEntrySpec encrypted{"archive/data.pkl", PickleBuilder().proto(2).call("os", "system", "id").stop().bytes()};
  encrypted.local_flags = 1;
  s.emplace_back("encrypted_flag_local", build_zip({encrypted}));
  s.emplace_back("unsafe_name", build_zip({{"../evil.pkl", "x"}, {"/abs", "y"}}));
  s.emplace_back("npy_entries", build_zip({{"a.npy", npy_file("<f4", {2}, std::string(8, '\0')), false, false},
                                           {"o.npy", npy_file("|O", {1}, PickleBuilder().proto(2).op('N').stop().bytes())}}));
  s.emplace_back("two_archives", build_zip({{"a/data.pkl", state_dict_pickle(tensors)},
                                            {"b/data.pkl", state_dict_pickle(tensors)}}));
  s.emplace_back("comment_trailing", build_zip({{"x", "y", false, false}}, ZipOptions{"a comment", "trailing", {}, false}));
  auto folded = torch_entries(tensors);
  folded.push_back({"archive/DATA.PKL", "cos\nsystem\n(S'id'\ntR."});
  s.emplace_back("data_pkl_in_two_cases", build_zip(folded));
  s.emplace_back("protocol0_in_text_entry", build_zip({{"notes.txt", "cos\nsystem\n(S'id'\ntR."}, {"d/0", std::string(600, 'N')}}));
  s.emplace_back("structured_object_npy", build_zip({{"s.npy", npy_file("[('a', '|O', (2,))]", {1},
                                                                         PickleBuilder().proto(2).op('N').stop().bytes())}}));
  // The records between the entries and the end that the walker must step over or refuse: a
  // digital signature after the central directory, an archive extra data record before it.
  const std::string plain = build_zip({{"a.txt", "abc"}});
  std::string signed_zip = plain;
  signed_zip.insert(signed_zip.rfind("PK\x05\x06"), std::string("PK\x05\x05\x04\x00sig!", 10));
  s.emplace_back("digital_signature_record_uncounted", signed_zip);
  signed_zip[signed_zip.rfind("PK\x05\x06") + 12] += 10;  // the directory's size counts the record
  s.emplace_back("digital_signature_record", signed_zip);
  std::string extra = plain;
  extra.insert(extra.find("PK\x01\x02"), std::string("PK\x06\x08\x02\x00\x00\x00xy", 10));
  s.emplace_back("archive_extra_data_record", extra);
  return s;
}

Seeds tar_seeds() {
  const std::string payload = PickleBuilder().proto(2).call("os", "system", "id").stop().bytes();
  Seeds s;
  s.emplace_back("legacy_torch", legacy_torch_tar({{2, 3}, {4}}));
  s.emplace_back("legacy_payload_in_storages", legacy_torch_tar({{2}}, payload));
  s.emplace_back("protocol0_member", build_tar({{"notes.txt", "cos\nsystem\n(S'id'\ntR."}, {"d/", "", '5'}}));
  TarMemberSpec pax{"a", payload};
  pax.header_size = 0;
  pax.pax = {{"size", std::to_string(payload.size())}, {"path", "pickle"}};
  TarMemberSpec longname{std::string(120, 'n') + "/storages", legacy_storages_member({{3}})};
  longname.gnu_long_name = true;
  s.emplace_back("extended_headers", build_tar({pax, longname, {"l", "", '2', "pickle"}}));
  s.emplace_back("cut", build_tar({{"a", std::string(700, 'x')}}, false).substr(0, 900));
  // What torch's loader reads as links, twice, or cut inside its raw bytes; GNU sparse.
  std::string storages = legacy_storages_member({{8}});
  storages.resize(storages.size() - 20);
  s.emplace_back("loader_members_twisted", build_tar({{"storages", "", '1', "x"}, {"pickle", payload}, {"pickle", payload},
                                                      {"tensors", legacy_tensors_member({{2}}).substr(0, 40)},
                                                      {"storages", storages}}));
  s.emplace_back("gnu_sparse", build_tar({{"s", "abc", 'S'}}));
  // Pax records a scanner may read otherwise: a size that is no number, a non-ASCII size, a
  // link path, a sparse keyword; numbers in base-256 and octal spellings Python accepts.
  TarMemberSpec bad_size{"a", payload};
  bad_size.pax = {{"size", "0x20"}, {"linkpath", "b"}};
  TarMemberSpec non_ascii{"b", payload};
  non_ascii.pax = {{"size", "\xd9\xa2"}};
  TarMemberSpec sparse{"c", "x"};
  sparse.pax = {{"GNU.sparse.size", "1"}};
  s.emplace_back("pax_size_not_a_number", build_tar({bad_size}));
  s.emplace_back("pax_size_not_ascii", build_tar({non_ascii}));
  s.emplace_back("pax_sparse", build_tar({sparse}));
  const std::string global = pax_records({{"size", "9"}, {"path", "g"}});
  s.emplace_back("pax_global", tar_header("g", static_cast<std::int64_t>(global.size()), 'g') + global +
                                   std::string(512 - global.size(), '\0') + build_tar({{"a", "x"}}));
  s.emplace_back("negative_size", tar_header("a", -1, '0') + std::string(1024, '\0'));
  std::string wide = tar_header("w", 0, '0');
  wide.replace(124, 12, std::string("\x80\x01\0\0\0\0\0\0\0\0\0\x05", 12));  // size: 12 base-256 bytes, past int64
  set_tar_checksum(wide);
  s.emplace_back("size_past_int64", wide + std::string(1024, '\0'));
  std::string numbers = tar_header("n", 3, '0') + "abc" + std::string(509, '\0');
  numbers.replace(100, 8, std::string("\xff\xff\xff\xff\xff\xff\xff\xfe", 8));  // mode: base-256, negative
  numbers.replace(108, 8, std::string(" 0o1_7 \0", 8));                            // uid: Python's octal spelling
  set_tar_checksum(numbers);
  s.emplace_back("numbers_python_reads", numbers + std::string(1024, '\0'));
  std::vector<TarMemberSpec> many;
  for (int i = 0; i < 20; ++i) many.push_back({"p" + std::to_string(i) + ".pkl", PickleBuilder().proto(2).op('N').stop().bytes()});
  s.emplace_back("many_pickles", build_tar(many));
  return s;
}

// Whole, and cut at three places (the split header's positions are taken modulo the size).
void write(const std::filesystem::path& dir, const Seeds& seeds) {
  std::filesystem::create_directories(dir);
  for (const auto& [name, bytes] : seeds) {
    const std::string whole = std::string(1, '\0') + bytes;
    const std::string cut = std::string("\x03\x05\x00\x11\x00\x40\x00", 7) + bytes;
    std::ofstream(dir / name, std::ios::binary).write(whole.data(), static_cast<std::streamsize>(whole.size()));
    std::ofstream(dir / (name + "_cut"), std::ios::binary).write(cut.data(), static_cast<std::streamsize>(cut.size()));
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: write_kind_seeds PICKLE_DIR ZIP_DIR TAR_DIR\n");
    return 2;
  }
  write(argv[1], pickle_seeds());
  write(argv[2], zip_seeds());
  write(argv[3], tar_seeds());
  return 0;
}
