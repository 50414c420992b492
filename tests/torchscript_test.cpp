// TorchScript archives (family TS, core/src/torchscript and core/src/zip/zp_torchscript.cpp):
// files torch.jit.save wrote (tests/data/torchscript/make_fixtures.py) pass with a TS.torchscript
// warning and their summary, the same in any chunks; their TorchScript globals are allowed only
// in a TorchScript archive and only for classes its code defines; each TS rule refutes what it
// names, in archives the real writer made and edited, and in code fed to the lexer directly.
#include <gtest/gtest.h>

#include <string>

#include "test_data.hpp"
#include "common/finding_list.hpp"
#include "pickle_builder.hpp"
#include "stream_check.hpp"
#include "tensorgate/validator.hpp"
#include "tensorgate/zip.hpp"
#include "torchscript/bytecode_ops.hpp"
#include "torchscript/code_lexer.hpp"
#include "zip_builder.hpp"

namespace {

using namespace tgtest;
using tensorgate::Report;
using tensorgate::ZipSummary;

std::string fixture(const std::string& name) {
  return tgtest::test_data("torchscript/" + name);
}

Report zip_report(std::string_view bytes) {
  return check_stream([] { return tensorgate::make_zip_validator(); }, bytes);
}

const ZipSummary& zip_summary(const Report& r) { return *r.summary.get<ZipSummary>(); }

const tensorgate::PickleGlobal* global_of(const ZipSummary& z, std::string_view entry, std::string_view module,
                                          std::string_view name) {
  for (const auto& p : z.pickles)
    if (p.entry == entry)
      for (const auto& g : p.summary.globals)
        if (g.module == module && g.name == name) return &g;
  return nullptr;
}

// The rule ids a code file's bytes give, fed whole and byte by byte (the same both ways).
std::string code_rules(std::string_view code, const tensorgate::Limits& limits = {}) {
  std::string ids[2];
  for (int bytewise = 0; bytewise < 2; ++bytewise) {
    tensorgate::detail::FindingList findings(100);
    tensorgate::detail::torchscript::CodeScanner scanner(limits.torchscript, {&findings, 0, true, "a/code/__torch__.py"});
    const auto* p = reinterpret_cast<const unsigned char*>(code.data());
    if (bytewise) for (std::size_t i = 0; i < code.size(); ++i) scanner.feed(p + i, 1);
    else scanner.feed(p, code.size());
    scanner.finish();
    for (const auto& f : findings.items()) ids[bytewise] += (ids[bytewise].empty() ? "" : " ") + std::string(tensorgate::rule_info(f.rule).id);
  }
  EXPECT_EQ(ids[0], ids[1]) << code;
  return ids[0];
}

TEST(TorchScript, ArchivesTheRealWriterMadePassWithTheirCode) {
  for (const char* name : {"two_layer.pt", "two_layer_mobile.ptl"}) {
    const std::string bytes = fixture(name);
    ASSERT_FALSE(bytes.empty()) << name;
    const Report r = zip_report(bytes);
    EXPECT_TRUE(r.valid) << name << ": " << errors_of(r);
    EXPECT_EQ(warnings_of(r), "TS.torchscript") << name;
    const ZipSummary& z = zip_summary(r);
    ASSERT_TRUE(z.torchscript) << name;
    EXPECT_EQ(z.torchscript->bytecode, std::string_view(name).ends_with(".ptl"));
    const std::string prefix = z.torchscript->archive;
    EXPECT_EQ(z.torchscript->classes, (std::vector<std::string>{"__torch__.TwoLayer", "__torch__.torch.nn.modules.linear.Linear",
                                                                "__torch__.torch.nn.modules.linear.___torch_mangle_0.Linear"}));
    EXPECT_EQ(z.torchscript->code_files,
              (std::vector<std::string>{prefix + "/code/__torch__.py", prefix + "/code/__torch__/torch/nn/modules/linear.py",
                                        prefix + "/code/__torch__/torch/nn/modules/linear/___torch_mangle_0.py"}));
    EXPECT_EQ(z.data_pkl_valid, true);
    const auto* cls = global_of(z, prefix + "/data.pkl", "__torch__", "TwoLayer");
    ASSERT_TRUE(cls);
    EXPECT_EQ(cls->verdict, tensorgate::GlobalVerdict::allowed);
    const auto* builder = global_of(z, prefix + "/code/__torch__.py.debug_pkl", "torch.jit._pickle", "build_intlist");
    ASSERT_TRUE(builder);
    EXPECT_EQ(builder->verdict, tensorgate::GlobalVerdict::allowed);
    EXPECT_EQ(tensorgate::pytorch_state(z)->tensors.size(), 4u) << name;  // fc1 and fc2's weights and biases
  }
}

TEST(TorchScript, CodeThatReadsFilesOrLoadsLibrariesIsAnError) {
  const Report from_file = zip_report(fixture("from_file.pt"));  // scripted from torch.from_file
  EXPECT_EQ(errors_of(from_file), "TS.code");
  EXPECT_NE(message_of(from_file, "TS.code").find("torch.from_file"), std::string::npos);
  const Report custom = zip_report(fixture("custom_op.pt"));
  EXPECT_EQ(errors_of(custom), "TS.code");
  EXPECT_NE(message_of(custom, "TS.code").find("evil_lib"), std::string::npos);
  const Report import_os = zip_report(fixture("import_os.pt"));
  EXPECT_EQ(errors_of(import_os), "TS.code");
  EXPECT_NE(message_of(import_os, "TS.code").find("line 1"), std::string::npos);
  const Report lex = zip_report(fixture("unterminated.pt"));
  EXPECT_EQ(errors_of(lex), "TS.code-lex");
  for (const Report* r : {&from_file, &custom, &import_os, &lex}) EXPECT_EQ(warnings_of(*r), "TS.torchscript");
}

TEST(TorchScript, TheMobileBytecodesOperatorsAreRead) {
  const Report from_file = zip_report(fixture("from_file_mobile.ptl"));  // its code file and its bytecode
  EXPECT_EQ(errors_of(from_file), "TS.code TS.code");
  EXPECT_EQ(warnings_of(from_file), "TS.torchscript");
  // The code files call torch.relu; the bytecode the lite interpreter runs names evil::relu.
  const Report custom = zip_report(fixture("bytecode_custom_op.ptl"));
  EXPECT_EQ(errors_of(custom), "TS.code");
  EXPECT_NE(message_of(custom, "TS.code").find("bytecode.pkl"), std::string::npos);
  EXPECT_NE(message_of(custom, "TS.code").find("\"evil\""), std::string::npos);
}

// The TS.code findings of a bytecode.pkl's bytes, fed whole and byte by byte.
std::string operator_rules(std::string_view bytes) {
  std::string ids[2];
  for (int bytewise = 0; bytewise < 2; ++bytewise) {
    tensorgate::detail::FindingList findings(100);
    tensorgate::detail::torchscript::OperatorNames names(tensorgate::TorchScriptLimits{}, findings, 100, 0, true, "");
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
    if (bytewise) for (std::size_t i = 0; i < bytes.size(); ++i) names.feed(p + i, 1);
    else names.feed(p, bytes.size());
    names.finish();
    for (const auto& f : findings.items()) ids[bytewise] += (ids[bytewise].empty() ? "" : " ") + f.message;
  }
  EXPECT_EQ(ids[0], ids[1]);
  return ids[0];
}

TEST(TorchScript, OperatorNamesAsTheyLieInAPickle) {
  using namespace std::string_literals;
  EXPECT_EQ(operator_rules("X\x0c\0\0\0aten::linearq\nX\x0a\0\0\0prim::Printq\x0b"s), "");
  EXPECT_EQ(operator_rules("\x8c" "aaten::relu\x94"s), "");  // a length byte that is a letter
  EXPECT_NE(operator_rules("X\x0f\0\0\0aten::from_fileqA"s).find("aten::from_file\""), std::string::npos);
  EXPECT_NE(operator_rules("X\x0f\0\0\0aten::from_filer\1\0\0\0"s).find("aten::from_file\""), std::string::npos);
  EXPECT_NE(operator_rules("X\x09\0\0\0evil::runq\x01"s).find("\"evil\""), std::string::npos);
  EXPECT_NE(operator_rules("aten::save"s).find("aten::save"), std::string::npos);  // at the very end
  // A namespace run past Limits::torchscript.max_name_bytes is none of TorchScript's.
  EXPECT_NE(operator_rules(std::string(5000, 'x') + "aten::relu").find("library"), std::string::npos);
  const std::string mixed = operator_rules("a: :b ::c aten::from_filex std::string"s);
  EXPECT_EQ(mixed.find("from_file"), std::string::npos);
  EXPECT_NE(mixed.find("library \"std\""), std::string::npos);
}

TEST(TorchScript, AClassWithoutItsCodeFileIsUnknown) {
  const Report r = zip_report(fixture("missing_code.pt"));
  EXPECT_TRUE(r.valid) << errors_of(r);
  EXPECT_EQ(warnings_of(r), "TS.torchscript PK.unknown-global PK.unknown-global");
  EXPECT_NE(message_of(r, "PK.unknown-global").find("code/__torch__/torch/nn/modules/linear.py"), std::string::npos);
}

TEST(TorchScript, OutsideATorchScriptArchiveItsGlobalsAreHostile) {
  const Report r = zip_report(fixture("no_code.zip"));
  EXPECT_EQ(errors_of(r), "PK.dangerous-global PK.dangerous-global PK.dangerous-global");
  EXPECT_EQ(warnings_of(r), "");
  const ZipSummary& z = zip_summary(r);
  EXPECT_FALSE(z.torchscript);
  EXPECT_EQ(z.data_pkl_valid, false);
  ASSERT_FALSE(z.pickles.empty());
  EXPECT_FALSE(z.pickles[0].valid);
  const auto* cls = global_of(z, "two_layer/data.pkl", "__torch__", "TwoLayer");
  ASSERT_TRUE(cls);
  EXPECT_EQ(cls->verdict, tensorgate::GlobalVerdict::dangerous);
}

// A TorchScript archive built by hand: its data.pkl imports `module`.`name`.
Report with_global(std::string_view module, std::string_view name, bool code = true) {
  std::vector<ZipEntrySpec> entries = {{"a/data.pkl", PickleBuilder().proto(2).global(module, name).op('.').bytes()}};
  if (code) entries.push_back({"a/code/__torch__.py", "class M(Module):\n  training : bool\n"});
  return zip_report(build_zip(entries));
}

TEST(TorchScript, OnlyTorchScriptsOwnGlobalsAreAllowed) {
  EXPECT_EQ(errors_of(with_global("__torch__", "M")), "");
  EXPECT_EQ(errors_of(with_global("torch.jit._pickle", "build_intlist")), "");
  EXPECT_EQ(errors_of(with_global("torch.jit._pickle", "restore_type_tag")), "");
  // Still hostile in a TorchScript archive.
  EXPECT_EQ(errors_of(with_global("torch.jit._pickle", "exec_anything")), "PK.dangerous-global");
  EXPECT_EQ(errors_of(with_global("__torch__.__builtins__", "eval")), "PK.dangerous-global");
  EXPECT_EQ(errors_of(with_global("__torch__", "__reduce__")), "PK.dangerous-global");
  EXPECT_EQ(errors_of(with_global("__torch__.os", "system")), "PK.dangerous-global");
  EXPECT_EQ(errors_of(with_global("__torch__", "M.__class__")), "PK.dangerous-global");
  EXPECT_EQ(errors_of(with_global("torch.jit", "load")), "PK.dangerous-global");
  // And in a zip without code, TorchScript's own are too.
  EXPECT_EQ(errors_of(with_global("torch.jit._pickle", "build_intlist", false)), "PK.dangerous-global");
  EXPECT_EQ(errors_of(with_global("__torch__", "M", false)), "PK.dangerous-global");
  // bytecode.pkl alone marks the archive too.
  const std::string mobile = build_zip({{"a/data.pkl", PickleBuilder().proto(2).global("torch.jit._pickle", "build_intlist").op('.').bytes()},
                                        {"a/bytecode.pkl", PickleBuilder().proto(2).op('N').op('.').bytes()}});
  const Report r = zip_report(mobile);
  EXPECT_EQ(errors_of(r), "");
  EXPECT_EQ(warnings_of(r), "TS.torchscript");
  EXPECT_TRUE(zip_summary(r).torchscript->bytecode);
}

TEST(TorchScript, CodeRulesFollowDottedNames) {
  EXPECT_EQ(code_rules("x = torch.from_file('f', False, 4)\n"), "TS.code");
  EXPECT_EQ(code_rules("x = (torch).from_file('f', False, 4)\n"), "TS.code");
  EXPECT_EQ(code_rules("x = ((torch . ops) . aten).save(t, 'f')\n"), "TS.code");
  EXPECT_EQ(code_rules("x = torch.\\\n  save(t, 'f')\n"), "TS.code");
  EXPECT_EQ(code_rules("x = f(torch.ops.aten.from_file(\n  'f', # a comment\n  False, 4))\n"), "TS.code");
  EXPECT_EQ(code_rules("x = torch.ops.my_library.op(t)\n"), "TS.code");
  EXPECT_EQ(code_rules("x = ops.my_library.op(t)\n"), "TS.code");
  EXPECT_EQ(code_rules("x = torch.classes.my_library.Thing(1)\n"), "TS.code");
  EXPECT_EQ(code_rules("x = torch.classes.quantized.LinearPackedParamsBase\n"), "");
  EXPECT_EQ(code_rules("import subprocess as sp\n"), "TS.code");
  EXPECT_EQ(code_rules("import math, os.path\n"), "TS.code");
  EXPECT_EQ(code_rules("from builtins import eval\n"), "TS.code");
  EXPECT_EQ(code_rules("from socket import (socket as s)\n"), "TS.code");
  EXPECT_EQ(code_rules("x = 1; import os\n"), "TS.code");
  // Not operators that touch files: TorchScript's own namespaces, names in strings and comments.
  EXPECT_EQ(code_rules("x = ops.prim.NumToTensor(t)\ny = ops.quantized.linear(t, w, 1.0, 0)\n"), "");
  EXPECT_EQ(code_rules("x = torch.ops.aten.relu(t)\ny = torch.linear(t, w, b)\n"), "");
  EXPECT_EQ(code_rules("s = \"torch.from_file\"  # torch.save(x)\n"), "");
  EXPECT_EQ(code_rules("x = self.save\ny = torch.relu(x).save\n"), "");
  EXPECT_EQ(code_rules("import math\nfrom typing import List\n"), "");
}

TEST(TorchScript, CodeThatDoesNotLexIsAnError) {
  EXPECT_EQ(code_rules(std::string("x = 1\0\n", 7)), "TS.code-lex");
  EXPECT_EQ(code_rules("x = '\xff'\n"), "TS.code-lex");           // not UTF-8
  EXPECT_EQ(code_rules("x = '\xe2\x82'"), "TS.code-lex");         // a sequence cut by the end
  EXPECT_EQ(code_rules("x = \"abc\ny = 1\n"), "TS.code-lex");      // open at its line's end
  EXPECT_EQ(code_rules("x = \"\"\"abc\n"), "TS.code-lex");         // open at the file's end
  EXPECT_EQ(code_rules("x = $y\n"), "TS.code-lex");
  EXPECT_EQ(code_rules("x = caf\xc3\xa9\n"), "TS.code-lex");        // non-ASCII outside a string
  EXPECT_EQ(code_rules("x = (1]\n"), "TS.code-lex");
  EXPECT_EQ(code_rules("x = (1,\n"), "TS.code-lex");
  EXPECT_EQ(code_rules("x = 1 \\ y\n"), "TS.code-lex");
  EXPECT_EQ(code_rules("x = a ! b\n"), "TS.code-lex");
  tensorgate::Limits shallow;
  shallow.torchscript.max_bracket_depth = 3;
  EXPECT_EQ(code_rules("x = (((1)))\n", shallow), "");
  EXPECT_EQ(code_rules("x = ((((1))))\n", shallow), "TS.code-lex");
  // What TorchScript's printer writes, and Python's literals, lex.
  EXPECT_EQ(code_rules("s = \"\"\"a \"quoted\" ''\nline\"\"\"\nt = r'\\'' + b\"\\x00\" + ''\nu = 1e-5 + 0x1F + 2.5j\n"
                       "v = a != b and c <= d # caf\xc3\xa9\n\r\nw = \"caf\xc3\xa9\"\n"), "");
}

TEST(TorchScript, ALongNameIsJudgedByItsFirstBytes) {
  tensorgate::Limits limits;
  limits.torchscript.max_name_bytes = 16;
  EXPECT_EQ(code_rules("x = ops.a_very_long_library_name_cut_here.op(t)\n", limits), "TS.code");
  EXPECT_EQ(code_rules("x = " + std::string(1000, 'a') + "." + std::string(1000, 'b') + "\n", limits), "");
}

}  // namespace
