// PK.dangerous-global, PK.unknown-global, PK.unresolved-global, PK.global-mutation: every
// global a pickle imports is resolved (GLOBAL, INST, STACK_GLOBAL through the stack and the
// memo) and judged, after _compat_pickle's renames, against the lists; each published way of
// slipping a global past a scanner is caught.
#include <gtest/gtest.h>

#include "pickle_builder.hpp"
#include "stream_check.hpp"
#include "tensorgate/pickle.hpp"

using tensorgate::PickleSummary;

namespace {

using namespace tgtest;

const tensorgate::PickleGlobal* global_named(const tensorgate::Report& r, std::string_view module, std::string_view name) {
  for (const auto& g : r.summary.get<PickleSummary>()->globals)
    if (g.module == module && g.name == name) return &g;
  return nullptr;
}

std::string single_global(std::string_view module, std::string_view name, bool stack_global = false) {
  PickleBuilder b;
  b.proto(stack_global ? 4 : 2);
  if (stack_global) b.str(module).str(name).stack_global(); else b.global(module, name);
  return b.stop().bytes();
}

TEST(PickleGlobals, AllowListedGlobalsGiveNoFinding) {
  for (const auto& [m, n] : std::vector<std::pair<std::string, std::string>>{
           {"collections", "OrderedDict"}, {"torch._utils", "_rebuild_tensor_v2"}, {"torch", "FloatStorage"},
           {"torch", "bfloat16"}, {"numpy.core.multiarray", "_reconstruct"}, {"_codecs", "encode"}}) {
    const auto r = check_pickle(single_global(m, n));
    EXPECT_TRUE(r.valid) << m << "." << n;
    EXPECT_EQ(errors_of(r) + warnings_of(r), "") << m << "." << n;
    ASSERT_TRUE(global_named(r, m, n));
    EXPECT_EQ(global_named(r, m, n)->verdict, tensorgate::GlobalVerdict::allowed);
  }
}

TEST(PickleGlobals, DeniedModulesAndTheirSubmodules) {
  for (const auto& [m, n] : std::vector<std::pair<std::string, std::string>>{
           {"os", "system"}, {"posix", "system"}, {"os.path", "join"}, {"subprocess", "Popen"},
           {"socket", "create_connection"}, {"numpy.f2py", "compile"}, {"torch.hub", "load"}, {"pip", "main"}}) {
    for (const bool sg : {false, true}) {
      const auto r = check_pickle(single_global(m, n, sg));
      EXPECT_FALSE(r.valid) << m << "." << n;
      EXPECT_EQ(errors_of(r), "PK.dangerous-global") << m << "." << n;
      EXPECT_EQ(global_named(r, m, n)->verdict, tensorgate::GlobalVerdict::dangerous);
    }
  }
}

TEST(PickleGlobals, DeniedNamesAndWhatTheyReach) {
  for (const auto& [m, n] : std::vector<std::pair<std::string, std::string>>{
           {"builtins", "eval"}, {"builtins", "getattr"}, {"pickle", "loads"}, {"torch", "load"},
           {"torch.storage", "_load_from_bytes"}, {"operator", "attrgetter"}, {"builtins", "eval.__call__"}}) {
    EXPECT_EQ(errors_of(check_pickle(single_global(m, n, true))), "PK.dangerous-global") << m << "." << n;
  }
  // A name that merely begins like a denied one is not it.
  EXPECT_EQ(errors_of(check_pickle(single_global("builtins", "evaluate"))), "");
}

TEST(PickleGlobals, NamesAreNormalisedLikeCompatPickle) {
  // Python 3 writes sets as __builtin__ set at protocol 2: real torch.save output.
  auto r = check_pickle(single_global("__builtin__", "set"));
  EXPECT_EQ(errors_of(r) + warnings_of(r), "");
  EXPECT_TRUE(global_named(r, "builtins", "set"));
  EXPECT_EQ(errors_of(check_pickle(single_global("__builtin__", "eval"))), "PK.dangerous-global");
  EXPECT_EQ(errors_of(check_pickle(single_global("commands", "getoutput"))), "PK.dangerous-global");  // subprocess
  EXPECT_EQ(errors_of(check_pickle(single_global("cPickle", "loads"))), "PK.dangerous-global");
  EXPECT_EQ(errors_of(check_pickle(single_global("_pickle", "loads"))), "PK.dangerous-global");
  EXPECT_EQ(errors_of(check_pickle(single_global("_operator", "methodcaller"))), "PK.dangerous-global");
  r = check_pickle(single_global("__builtin__", "intern"));  // -> sys.intern
  EXPECT_EQ(errors_of(r), "PK.dangerous-global");
  EXPECT_TRUE(global_named(r, "sys", "intern"));
}

TEST(PickleGlobals, HostileShapes) {
  EXPECT_NE(message_of(check_pickle(single_global("numpy", "__builtins__", true)), "PK.dangerous-global").find("__builtins__"),
            std::string::npos);
  EXPECT_EQ(errors_of(check_pickle(single_global("__main__", "Model"))), "PK.dangerous-global");
  const auto walk = check_pickle(single_global("numpy.core.numeric", "sys.modules", true));
  EXPECT_EQ(errors_of(walk), "PK.dangerous-global");
  EXPECT_NE(message_of(walk, "PK.dangerous-global").find("walks through sys"), std::string::npos);
  EXPECT_EQ(errors_of(check_pickle(single_global("torch.serialization", "pickle.loads", true))), "PK.dangerous-global");
  // A name longer than any real one, which scanners that cut names would see only in part.
  EXPECT_EQ(errors_of(check_pickle(single_global("os", "system" + std::string(300, 'x')))), "PK.dangerous-global");
  // The last component alone is an attribute, not a walk; a module path is imported, not walked.
  EXPECT_EQ(errors_of(check_pickle(single_global("torch.nn.modules.linear", "Linear"))), "");
  EXPECT_EQ(errors_of(check_pickle(single_global("scipy.signal._ltisys", "TransferFunction", true))), "");
}

TEST(PickleGlobals, UnknownGlobalsAreWarnings) {
  const auto r = check_pickle(single_global("builtins", "dict"));
  EXPECT_TRUE(r.valid);
  EXPECT_EQ(errors_of(r), "");
  EXPECT_EQ(warnings_of(r), "PK.unknown-global");
  EXPECT_EQ(global_named(r, "builtins", "dict")->verdict, tensorgate::GlobalVerdict::unknown);
}

TEST(PickleGlobals, OneFindingPerDistinctGlobalAndCounts) {
  PickleBuilder b;
  b.proto(2);
  for (int i = 0; i < 3; ++i) b.call("os", "system", "id").op('0');
  b.global("builtins", "dict").op('0').global("builtins", "dict").op('0').op('N').stop();
  const auto r = check_pickle(b.bytes());
  EXPECT_EQ(errors_of(r), "PK.dangerous-global");
  EXPECT_EQ(warnings_of(r), "PK.unknown-global");
  EXPECT_EQ(global_named(r, "os", "system")->imports, 3u);
  EXPECT_EQ(global_named(r, "os", "system")->calls, 3u);
  EXPECT_EQ(global_named(r, "builtins", "dict")->imports, 2u);
  EXPECT_EQ(global_named(r, "builtins", "dict")->calls, 0u);
}

// --- the published bypasses --------------------------------------------------------------------

TEST(PickleBypasses, MemoisedStringsForStackGlobal) {  // modelscan #85
  PickleBuilder b;
  b.proto(4).str("os").memoize().str("system").memoize().str("innocent").memoize().op('0');
  b.get(0).get(1).stack_global().str("id").tuple_n(1).reduce().stop();
  const auto r = check_pickle(b.bytes());
  EXPECT_EQ(errors_of(r), "PK.dangerous-global");
  EXPECT_NE(message_of(r, "PK.dangerous-global").find("os.system"), std::string::npos);
}

TEST(PickleBypasses, StackGlobalOperandsFromFarBack) {
  // The operands are pushed long before STACK_GLOBAL and moved through PUT, POP and DUP.
  PickleBuilder b;
  b.proto(4).str("subprocess").put(7).op('0').str("x").op('0').get(7).str("check_output").op('2').op('0');
  b.stack_global().stop();
  EXPECT_EQ(errors_of(check_pickle(b.bytes())), "PK.dangerous-global");
}

TEST(PickleBypasses, InstAndObj) {
  EXPECT_EQ(errors_of(check_pickle(PickleBuilder().mark().line('S', "'id'").inst("os", "system").stop().bytes())),
            "PK.dangerous-global");
  const auto obj = check_pickle(PickleBuilder().mark().global("os", "system").line('S', "'id'").op('o').stop().bytes());
  EXPECT_EQ(errors_of(obj), "PK.dangerous-global");
  EXPECT_EQ(obj.summary.get<PickleSummary>()->globals[0].calls, 1u);
}

TEST(PickleBypasses, NestedGetattr) {
  // getattr(__import__('os'), 'system')('id'), with every name a string constant.
  PickleBuilder b;
  b.proto(2).global("builtins", "getattr").global("builtins", "__import__").str("os").tuple_n(1).reduce();
  b.str("system").op(0x86).reduce().str("id").tuple_n(1).reduce().stop();
  const auto r = check_pickle(b.bytes());
  EXPECT_EQ(errors_of(r), "PK.dangerous-global PK.dangerous-global");
}

TEST(PickleBypasses, PipMain) {  // CVE-2025-1716
  PickleBuilder b;
  b.proto(4).str("pip").str("main").stack_global().op(']').str("install").op('a').tuple_n(1).reduce().stop();
  EXPECT_NE(message_of(check_pickle(b.bytes()), "PK.dangerous-global").find("pip.main"), std::string::npos);
}

TEST(PickleBypasses, BrokenStreamAfterThePayload) {  // nullifAI
  const auto r = check_pickle(PickleBuilder().proto(2).call("os", "system", "id").raw("\xff\xff").bytes());
  EXPECT_EQ(errors_of(r), "PK.dangerous-global PK.unknown-opcode");
}

TEST(PickleBypasses, EscapedNamesInTextOpcodes) {
  // UNICODE's raw-unicode-escape and STRING's escapes spell "os" without the letters.
  auto b = PickleBuilder().line('V', "\\u006fs").line('S', "'sys\\x74em'").stack_global().stop();
  EXPECT_NE(message_of(check_pickle(b.bytes()), "PK.dangerous-global").find("os.system"), std::string::npos);
}

// --- PK.unresolved-global ------------------------------------------------------------------------

TEST(PickleGlobals, StackGlobalOfNonConstantsIsUnresolved) {
  PickleBuilder b;
  b.proto(4).str("builtins").str("str").stack_global().tuple_n(0).reduce().str("x").stack_global().stop();
  const auto r = check_pickle(b.bytes());
  EXPECT_EQ(errors_of(r), "PK.unresolved-global");
  EXPECT_EQ(warnings_of(r), "PK.unknown-global");  // builtins.str itself
  EXPECT_NE(message_of(r, "PK.unresolved-global").find("call result"), std::string::npos);
}

TEST(PickleGlobals, ExtensionCodesAreUnresolved) {
  EXPECT_EQ(errors_of(check_pickle(PickleBuilder().proto(2).raw("\x82\x07").stop().bytes())), "PK.unresolved-global");
  EXPECT_EQ(errors_of(check_pickle(PickleBuilder().proto(2).raw("\x83\x07\x01").stop().bytes())), "PK.unresolved-global");
}

// --- PK.global-mutation --------------------------------------------------------------------------

TEST(PickleGlobals, WritesIntoAGlobalItself) {
  // BUILD with slot state on the class itself: setattr(OrderedDict, 'x', ...).
  PickleBuilder b;
  b.proto(2).global("collections", "OrderedDict").op('N').op('}').str("x").integer(1).op('s').op(0x86).build().stop();
  EXPECT_EQ(errors_of(check_pickle(b.bytes())), "PK.global-mutation");
  PickleBuilder a;
  a.proto(2).global("torch.serialization", "_package_registry").integer(1).op('a').stop();
  const auto append = check_pickle(a.bytes());
  EXPECT_EQ(errors_of(append), "PK.global-mutation");
  EXPECT_EQ(warnings_of(append), "PK.unknown-global");
  // BUILD on what a call made is how objects are restored: no finding.
  PickleBuilder ok;
  ok.proto(2).global("collections", "OrderedDict").tuple_n(0).reduce().op('}').build().stop();
  const auto r = check_pickle(ok.bytes());
  EXPECT_EQ(errors_of(r), "");
  EXPECT_EQ(r.summary.get<PickleSummary>()->globals[0].calls, 2u);  // the call, and BUILD's __setstate__
}

}  // namespace
