// The deny-lists and shapes (global_deny_stdlib.def, global_deny_ml.def, global_shapes.def):
// globals that run code, touch files, use the network or resolve names are PK.dangerous-global
// whether they are listed by module, by name, by a leaf rule or as an alias; a dotted name is an
// attribute walk and always dangerous; ordinary globals stay PK.unknown-global or allowed. The
// lists agree with each other: no allowed global matches a denial.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "pickle/global_judge.hpp"
#include "pickle_builder.hpp"
#include "stream_check.hpp"
#include "tensorgate/pickle.hpp"

namespace {

using namespace tgtest;
using tensorgate::GlobalVerdict;
using tensorgate::detail::pickle::judge_global;
using Names = std::vector<std::pair<std::string, std::string>>;

struct ListEntry {
  std::string kind, path, reason;
};

std::vector<ListEntry> every_entry() {
  std::vector<ListEntry> v;
#define PK_ALLOW(path, reason) v.push_back({"allow", path, reason});
#define PK_DENY_MODULE(path, reason) v.push_back({"module", path, reason});
#define PK_DENY_NAME(path, reason) v.push_back({"name", path, reason});
#define PK_DENY_LEAF(name, reason) v.push_back({"leaf", name, reason});
#define PK_DENY_LEAF_PREFIX(prefix, reason) v.push_back({"prefix", prefix, reason});
#define PK_DENY_LEAF_SUFFIX(suffix, reason) v.push_back({"suffix", suffix, reason});
#define PK_DENY_ALIAS(component, reason) v.push_back({"alias", component, reason});
#include "pickle/global_deny_ml.def"
#include "pickle/global_deny_stdlib.def"
#include "pickle/global_lists.def"
#include "pickle/global_shapes.def"
#undef PK_ALLOW
#undef PK_DENY_MODULE
#undef PK_DENY_NAME
#undef PK_DENY_LEAF
#undef PK_DENY_LEAF_PREFIX
#undef PK_DENY_LEAF_SUFFIX
#undef PK_DENY_ALIAS
  return v;
}

std::pair<std::string, std::string> split_last(const std::string& path) {
  const std::size_t dot = path.rfind('.');
  return {path.substr(0, dot), path.substr(dot + 1)};
}

std::string one_global(std::string_view module, std::string_view name, int how) {
  PickleBuilder b;
  if (how == 0) return b.proto(2).global(module, name).stop().bytes();                         // GLOBAL
  if (how == 1) return b.proto(4).str(module).str(name).stack_global().stop().bytes();         // STACK_GLOBAL
  return b.mark().line('S', "'x'").inst(module, name).stop().bytes();                         // INST
}

void expect_dangerous(const Names& names) {
  for (const auto& [m, n] : names) {
    for (int how = 0; how < 3; ++how) {
      const auto r = check_pickle(one_global(m, n, how));
      EXPECT_FALSE(r.valid) << m << " " << n << " way " << how;
      EXPECT_EQ(errors_of(r), "PK.dangerous-global") << m << " " << n << " way " << how;
    }
  }
}

void expect_unknown(const Names& names) {
  for (const auto& [m, n] : names) {
    const auto r = check_pickle(one_global(m, n, 1));
    EXPECT_TRUE(r.valid) << m << " " << n;
    EXPECT_EQ(errors_of(r), "") << m << " " << n;
    EXPECT_EQ(warnings_of(r), "PK.unknown-global") << m << " " << n;
  }
}

TEST(PickleLists, EveryEntryHasAReasonAndTheListsAgree) {
  const auto entries = every_entry();
  ASSERT_GT(entries.size(), 500u);
  for (const auto& e : entries) {
    EXPECT_FALSE(e.reason.empty()) << e.path;
    if (e.kind == "allow") {
      const auto [m, n] = split_last(e.path);
      EXPECT_EQ(judge_global(m, n).verdict, GlobalVerdict::allowed) << e.path << ": " << judge_global(m, n).reason;
    } else if (e.kind == "module") {
      EXPECT_EQ(judge_global(e.path, "anything").verdict, GlobalVerdict::dangerous) << e.path;
      EXPECT_EQ(judge_global(e.path + ".sub", "anything").verdict, GlobalVerdict::dangerous) << e.path;
    } else if (e.kind == "name") {
      const auto [m, n] = split_last(e.path);
      EXPECT_EQ(judge_global(m, n).verdict, GlobalVerdict::dangerous) << e.path;
    } else if (e.kind == "alias") {
      EXPECT_EQ(judge_global("somelib.module", e.path).verdict, GlobalVerdict::dangerous) << e.path;
      EXPECT_EQ(judge_global("somelib." + e.path, "thing").verdict, GlobalVerdict::dangerous) << e.path;
    } else if (e.kind == "leaf") {
      EXPECT_EQ(judge_global("somelib.module", e.path).verdict, GlobalVerdict::dangerous) << e.path;
      EXPECT_EQ(judge_global("somelib.module", "_" + e.path).verdict, GlobalVerdict::dangerous) << e.path;
    } else if (e.kind == "prefix") {
      EXPECT_EQ(judge_global("somelib", e.path + "_thing").verdict, GlobalVerdict::dangerous) << e.path;
    } else {
      EXPECT_EQ(judge_global("somelib", "Some" + e.path).verdict, GlobalVerdict::dangerous) << e.path;
    }
  }
}

TEST(PickleLists, WhatTheReviewNamed) {
  expect_dangerous({{"imaplib", "IMAP4_stream"}, {"pydoc", "pipepager"}, {"pydoc", "locate"},
                    {"uuid", "_get_command_stdout"}, {"torch.utils.collect_env", "run"}, {"codecs", "open"},
                    {"zipfile", "ZipFile"}, {"logging", "FileHandler"}, {"tempfile", "mkstemp"},
                    {"tempfile", "NamedTemporaryFile"}, {"tempfile", "TemporaryDirectory"},
                    {"numpy.lib.npyio", "load"}});
}

TEST(PickleLists, ProcessesAndCode) {
  expect_dangerous({{"platform", "architecture"}, {"pipes", "Template"}, {"pty", "spawn"}, {"uuid", "getnode"},
                    {"uuid", "uuid1"}, {"mailcap", "findmatch"}, {"signal", "raise_signal"}, {"_thread", "start_new_thread"},
                    {"timeit", "timeit"}, {"typing", "get_type_hints"}, {"dataclasses", "_create_fn"},
                    {"builtins", "help"}, {"builtins", "type"}, {"site", "addsitedir"}, {"torch.fx.graph_module", "reduce_graph_module"},
                    {"torch.utils.cpp_extension", "load_inline"}, {"torch", "compile"}, {"time", "sleep"}});
}

TEST(PickleLists, FilesAndNetwork) {
  expect_dangerous({{"gzip", "open"}, {"tarfile", "TarFile"}, {"shelve", "open"}, {"dbm", "open"}, {"linecache", "getline"},
                    {"fileinput", "input"}, {"glob", "glob"}, {"posixpath", "exists"}, {"mmap", "mmap"},
                    {"argparse", "FileType"}, {"logging.handlers", "SocketHandler"}, {"xml.etree.ElementTree", "parse"},
                    {"numpy", "memmap"}, {"numpy", "fromfile"}, {"numpy.lib.format", "open_memmap"}, {"torch", "save"},
                    {"torch", "from_file"}, {"socketserver", "TCPServer"}, {"xmlrpc.client", "ServerProxy"},
                    {"smtplib", "SMTP"}, {"sqlite3", "connect"}, {"_io", "FileIO"}});
}

TEST(PickleLists, NamesFromStringsAndNestedDeserialisation) {
  expect_dangerous({{"pkgutil", "resolve_name"}, {"importlib", "import_module"}, {"unittest.mock", "_importer"},
                    {"logging.config", "_resolve"}, {"torch._utils", "_import_dotted_name"}, {"pickle", "_getattribute"},
                    {"marshal", "loads"}, {"pickle", "Unpickler"}, {"_pickle", "loads"}, {"yaml", "load"}, {"dill", "loads"},
                    {"joblib", "load"}, {"numpy", "load"}, {"torch", "load"}, {"pandas", "read_pickle"},
                    {"torch.serialization", "add_safe_globals"}, {"copyreg", "add_extension"}});
}

// What no list names, found by its shape.
TEST(PickleLists, LeafRulesCatchNamesNoListHolds) {
  expect_dangerous({{"somelib.io", "open_archive"}, {"somelib", "_load_state"}, {"somelib", "loads"},
                    {"h5py", "File"}, {"somelib.shell", "run_command"}, {"somelib", "spawnv"},
                    {"somelib.hub", "hf_hub_download"}, {"somelib", "getstatusoutput"}, {"somelib", "system"},
                    {"somelib.fs", "rmtree"}, {"somelib", "ArchiveFile"}, {"keras.models", "load_model"},
                    {"safetensors.torch", "save_file"}, {"somelib", "exec_command"}, {"somelib", "import_string"}});
}

// A module's own reference to a denied module, reached as an attribute.
TEST(PickleLists, AliasesOfDeniedModules) {
  expect_dangerous({{"tempfile", "_os"}, {"collections", "_sys"}, {"random", "_os"}, {"tempfile", "os"},
                    {"somelib", "_subprocess"}, {"argparse", "_sys"}, {"tempfile", "_shutil"}});
  const auto r = check_pickle(one_global("random", "_os", 1));
  EXPECT_NE(message_of(r, "PK.dangerous-global").find("private alias of os"), std::string::npos)
      << message_of(r, "PK.dangerous-global");
}

// Protocol 4 resolves a dotted name with getattr per component: a walk through attributes. No
// allowed global needs one, so every dotted name is dangerous, by GLOBAL, STACK_GLOBAL, INST and
// OBJ alike, even when the walk ends where an allowed global lives.
TEST(PickleLists, DottedNamesAreWalks) {
  expect_dangerous({{"tempfile", "_os.system"}, {"collections", "_sys.modules"}, {"mylib.model", "Outer.Inner"},
                    {"builtins", "dict.fromkeys"}, {"torch", "_utils._rebuild_tensor_v2"},
                    {"collections", "OrderedDict.fromkeys"}, {"zoneinfo", "ZoneInfo._unpickle"}});
  auto r = check_pickle(one_global("collections", "_sys.modules", 1));
  EXPECT_NE(message_of(r, "PK.dangerous-global").find("private alias of sys"), std::string::npos);
  r = check_pickle(one_global("mylib.model", "Outer.Inner", 1));
  EXPECT_NE(message_of(r, "PK.dangerous-global").find("attribute walk"), std::string::npos);
  // OBJ takes its class from the stack.
  PickleBuilder obj;
  obj.proto(4).mark().str("mylib.model").str("Outer.Inner").stack_global().integer(1).op('o').stop();
  EXPECT_EQ(errors_of(check_pickle(obj.bytes())), "PK.dangerous-global");
  // The same names undotted are what a pickler writes for top-level objects.
  const auto ok = check_pickle(one_global("torch._utils", "_rebuild_tensor_v2", 1));
  EXPECT_EQ(errors_of(ok) + warnings_of(ok), "");
}

TEST(PickleLists, TheResultOfPydocLocateCalled) {
  // pydoc.locate('os.system')('id'): the string names os.system, pydoc.locate is the finding.
  PickleBuilder b;
  b.proto(2).global("pydoc", "locate").str("os.system").tuple_n(1).reduce().str("id").tuple_n(1).reduce().stop();
  const auto r = check_pickle(b.bytes());
  EXPECT_EQ(errors_of(r), "PK.dangerous-global");
  EXPECT_NE(message_of(r, "PK.dangerous-global").find("pydoc.locate"), std::string::npos);
}

// Ordinary globals stay unknown (a warning): a submodule named like a denied module is its own
// module (scipy.signal is not signal), and a leaf rule matches whole prefixes, not any letters.
TEST(PickleLists, OrdinaryGlobalsStayUnknown) {
  expect_unknown({{"mylib.model", "Net"}, {"datetime", "datetime"}, {"scipy.signal._ltisys", "TransferFunction"},
                  {"pathlib", "PosixPath"}, {"argparse", "Namespace"}, {"uuid", "UUID"}, {"re", "_compile"},
                  {"transformers.training_args", "TrainingArguments"}, {"enum", "Enum"}, {"builtins", "evaluate"},
                  {"mylib.test_utils", "Helper"}, {"somelib", "Profile"}, {"somelib", "reloader"},
                  {"copyreg", "_reconstructor"}, {"numpy.random._pickle", "BitGenerators"}});
}

}  // namespace
