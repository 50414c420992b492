// The stream rules (PK.unknown-opcode, PK.protocol, PK.truncated, PK.no-stop,
// PK.stack-underflow, PK.mark-missing, PK.memo-missing, PK.argument, PK.trailing-data), pickles
// back to back, the legacy torch.save stream, the summary, and the scanner's bounds.
#include <gtest/gtest.h>

#include "chunked.hpp"
#include "pickle_builder.hpp"
#include "stream_check.hpp"
#include "tensorgate/pickle.hpp"
#include "tensorgate/validator.hpp"

using tensorgate::PickleSummary;

namespace {

using namespace tgtest;

std::string none_pickle(int protocol = 2) { return PickleBuilder().proto(protocol).op('N').stop().bytes(); }

TEST(PickleStream, EveryProtocolIsValid) {
  for (int p = 0; p <= 5; ++p) {
    const auto r = check_pickle(p >= 2 ? none_pickle(p) : PickleBuilder().op('N').stop().bytes());
    EXPECT_TRUE(r.valid) << p;
    EXPECT_EQ(r.format, tensorgate::Format::pickle);
    EXPECT_EQ(r.summary.get<PickleSummary>()->pickles, 1u);
    EXPECT_EQ(r.summary.get<PickleSummary>()->protocol, p >= 2 ? static_cast<std::uint32_t>(p) : 0u);
  }
  // Without PROTO, the opcodes tell protocol 0 from 1.
  EXPECT_EQ(check_pickle(PickleBuilder().op(']').stop().bytes()).summary.get<PickleSummary>()->protocol, 1u);
}

TEST(PickleStream, UnknownOpcode) {
  const auto r = check_pickle(PickleBuilder().proto(2).op('N').raw("\xf0").stop().bytes());
  EXPECT_EQ(errors_of(r), "PK.unknown-opcode");
  EXPECT_EQ(r.findings[0].offset, 3u);
  EXPECT_NE(r.findings[0].message.find("0xf0"), std::string::npos);
}

TEST(PickleStream, ProtocolAboveFive) {
  EXPECT_EQ(errors_of(check_pickle(PickleBuilder().proto(6).op('N').stop().bytes())), "PK.protocol");
  EXPECT_EQ(errors_of(check_pickle(none_pickle(5))), "");
}

TEST(PickleStream, Truncated) {
  const std::string whole = PickleBuilder().proto(4).str("a string of some length").stop().bytes();
  for (std::size_t cut = 3; cut < whole.size() - 1; ++cut)
    EXPECT_EQ(errors_of(check_pickle(whole.substr(0, cut))), cut == 2 ? "PK.no-stop" : "PK.truncated") << cut;
  // An announced length past the end, inside a fixed field, inside a line.
  const auto huge = check_pickle(PickleBuilder().proto(4).raw(std::string_view("\x8e\x00\x00\x00\x00\x00\x00\x00\x10", 9)).bytes());
  EXPECT_EQ(errors_of(huge), "PK.truncated");
  EXPECT_NE(huge.findings[0].message.find("1152921504606846976 bytes announced"), std::string::npos);
  EXPECT_EQ(errors_of(check_pickle(PickleBuilder().proto(2).raw("J\x01\x02").bytes())), "PK.truncated");
  EXPECT_EQ(errors_of(check_pickle(PickleBuilder().raw("cos\nsys").bytes())), "PK.truncated");
}

TEST(PickleStream, FramePastTheEnd) {
  const auto r = check_pickle(PickleBuilder().proto(4).frame(100).op('N').stop().bytes());
  EXPECT_EQ(errors_of(r), "PK.truncated");
  EXPECT_NE(r.findings[0].message.find("FRAME"), std::string::npos);
  EXPECT_EQ(errors_of(check_pickle(PickleBuilder().proto(4).frame(2).op('N').stop().bytes())), "");
}

TEST(PickleStream, NoStop) {
  EXPECT_EQ(errors_of(check_pickle(PickleBuilder().proto(2).op('N').bytes())), "PK.no-stop");
  EXPECT_EQ(errors_of(check_pickle("")), "PK.no-stop");
}

TEST(PickleStream, StackUnderflow) {
  EXPECT_EQ(errors_of(check_pickle(PickleBuilder().proto(2).op('N').reduce().stop().bytes())), "PK.stack-underflow");
  EXPECT_EQ(errors_of(check_pickle(PickleBuilder().proto(2).stop().bytes())), "PK.stack-underflow");
  // Nothing below the fence (the last MARK) may be taken.
  EXPECT_EQ(errors_of(check_pickle(PickleBuilder().proto(2).op('N').op('N').mark().op('N').reduce().bytes())),
            "PK.stack-underflow");
  EXPECT_EQ(errors_of(check_pickle(PickleBuilder().proto(2).mark().integer(1).op('e').stop().bytes())), "PK.stack-underflow");
  // POP takes a MARK that is at the top: no underflow.
  EXPECT_EQ(errors_of(check_pickle(PickleBuilder().proto(2).op('N').mark().op('0').stop().bytes())), "");
}

TEST(PickleStream, MarkMissing) {
  EXPECT_EQ(errors_of(check_pickle(PickleBuilder().proto(2).op('N').tuple().stop().bytes())), "PK.mark-missing");
  EXPECT_EQ(errors_of(check_pickle(PickleBuilder().proto(2).op('1').bytes())), "PK.mark-missing");
  EXPECT_EQ(errors_of(check_pickle(PickleBuilder().proto(2).mark().op('N').tuple().stop().bytes())), "");
}

TEST(PickleStream, MemoMissing) {
  const auto r = check_pickle(PickleBuilder().proto(2).op('N').put(3).op('0').get(4).stop().bytes());
  EXPECT_EQ(errors_of(r), "PK.memo-missing");
  EXPECT_NE(r.findings[0].message.find("index 4"), std::string::npos);
  EXPECT_EQ(errors_of(check_pickle(PickleBuilder().proto(2).op('N').put(3).op('0').get(3).stop().bytes())), "");
  EXPECT_EQ(errors_of(check_pickle(PickleBuilder().proto(4).op('N').memoize().op('0').get(0).stop().bytes())), "");
  EXPECT_EQ(errors_of(check_pickle(PickleBuilder().op('N').line('p', "12").op('0').line('g', "12").stop().bytes())), "");
  // Sparse indices far apart are stored as well.
  EXPECT_EQ(errors_of(check_pickle(PickleBuilder().op('N').put(70000).put(5).op('0').get(70000).stop().bytes())), "");
}

TEST(PickleStream, MalformedArguments) {
  EXPECT_EQ(errors_of(check_pickle(PickleBuilder().line('I', "12a!").stop().bytes())), "PK.argument");
  EXPECT_EQ(errors_of(check_pickle(PickleBuilder().line('I', "0x1f").stop().bytes())), "");  // int() takes hex
  EXPECT_EQ(errors_of(check_pickle(PickleBuilder().line('S', "unquoted").stop().bytes())), "PK.argument");
  EXPECT_EQ(errors_of(check_pickle(PickleBuilder().line('S', "'x\\x4'").stop().bytes())), "PK.argument");
  EXPECT_EQ(errors_of(check_pickle(PickleBuilder().line('F', "1.5e3").stop().bytes())), "");
  EXPECT_EQ(errors_of(check_pickle(PickleBuilder().line('F', "1,5").stop().bytes())), "PK.argument");
  EXPECT_EQ(errors_of(check_pickle(PickleBuilder().op('N').line('p', "-1").stop().bytes())), "PK.argument");
  EXPECT_EQ(errors_of(check_pickle(PickleBuilder().proto(2).raw("T\xff\xff\xff\xff").bytes())), "PK.argument");
  EXPECT_EQ(errors_of(check_pickle(PickleBuilder().proto(2).op('}').mark().integer(1).op('u').stop().bytes())), "PK.argument");
  EXPECT_EQ(errors_of(check_pickle(PickleBuilder().mark().integer(1).op('d').stop().bytes())), "PK.argument");
  EXPECT_EQ(errors_of(check_pickle(PickleBuilder().global("o\xffs", "system").stop().bytes())), "PK.argument");
}

// A value's `ref` indexes the pool of its kind: a global or a persistent id given where a tuple
// is expected must read as "not a tuple", not index the tuple pool (a fuzzer's find).
TEST(PickleStream, NonTupleWhereATupleIsExpected) {
  EXPECT_EQ(errors_of(check_pickle(PickleBuilder().proto(2).global("collections", "OrderedDict").op('Q').stop().bytes())), "");
  EXPECT_EQ(errors_of(check_pickle(PickleBuilder()
                                       .proto(2)
                                       .global("torch._utils", "_rebuild_tensor_v2")
                                       .global("collections", "OrderedDict")
                                       .reduce()
                                       .stop()
                                       .bytes())),
            "");
  const auto r = check_pickle(PickleBuilder().proto(2).global("torch", "Size").op('N').op('Q').reduce().stop().bytes());
  EXPECT_EQ(errors_of(r), "");
  EXPECT_EQ(r.summary.get<PickleSummary>()->tensors.size(), 0u);
}

TEST(PickleStream, PicklesBackToBack) {
  const auto r = check_pickle(none_pickle() + PickleBuilder().proto(2).call("os", "system", "id").stop().bytes());
  EXPECT_EQ(errors_of(r), "PK.dangerous-global");
  EXPECT_EQ(r.summary.get<PickleSummary>()->pickles, 2u);
  // A protocol-0 pickle after a binary one is scanned too.
  EXPECT_EQ(errors_of(check_pickle(none_pickle() + "cos\nsystem\n.")), "PK.dangerous-global");
  // Each pickle has its own memo.
  EXPECT_EQ(errors_of(check_pickle(PickleBuilder().proto(2).op('N').put(0).stop().bytes() +
                                   PickleBuilder().proto(2).get(0).stop().bytes())),
            "PK.memo-missing");
}

TEST(PickleStream, TrailingData) {
  const auto r = check_pickle(none_pickle() + std::string("\n\x00 junk", 7));
  EXPECT_TRUE(r.valid);
  EXPECT_EQ(warnings_of(r), "PK.trailing-data");
  EXPECT_EQ(r.findings[0].offset, 4u);
  EXPECT_EQ(r.summary.get<PickleSummary>()->trailing_bytes, 7u);
  EXPECT_EQ(warnings_of(check_pickle(none_pickle())), "");
}

TEST(PickleStream, LegacyTorchStream) {
  const std::string stream = legacy_torch_stream({{"w", "FloatStorage", {2, 3}}, {"b", "FloatStorage", {3}}});
  const auto r = check_pickle(stream);
  EXPECT_TRUE(r.valid) << errors_of(r);
  EXPECT_EQ(errors_of(r) + warnings_of(r), "");
  EXPECT_TRUE(r.summary.get<PickleSummary>()->legacy_torch);
  EXPECT_EQ(r.summary.get<PickleSummary>()->pickles, 5u);
  EXPECT_EQ(r.summary.get<PickleSummary>()->trailing_bytes, 2 * 8 + 4 * 9u);  // the raw storages, not pickles
  ASSERT_EQ(r.summary.get<PickleSummary>()->tensors.size(), 2u);
  EXPECT_EQ(r.summary.get<PickleSummary>()->tensors[0].name, "w");
  EXPECT_EQ(r.summary.get<PickleSummary>()->tensors[0].dtype, "F32");
  EXPECT_EQ(r.summary.get<PickleSummary>()->tensors[0].shape, (std::vector<std::uint64_t>{2, 3}));
  EXPECT_EQ(r.summary.get<PickleSummary>()->tensors[0].bytes, 24u);
  // A payload in any of the five pickles is found, however its first byte looks.
  std::string evil = stream;
  const std::string sys_info = PickleBuilder().proto(2).op('}').str("protocol_version").integer(1001).op('s').stop().bytes();
  evil.replace(evil.find(sys_info), sys_info.size(), "cos\nsystem\n(S'id'\ntR.");
  EXPECT_EQ(errors_of(check_pickle(evil)), "PK.dangerous-global");
  // Cut inside the fourth pickle: no STOP for it.
  EXPECT_EQ(errors_of(check_pickle(stream.substr(0, 60))), "PK.truncated");
}

TEST(PickleStream, StateDictSummary) {
  const auto r = check_pickle(state_dict_pickle({{"model.embed.weight", "BFloat16Storage", {10, 8}},
                                                 {"model.norm.weight", "HalfStorage", {8}},
                                                 {"step", "LongStorage", {}}}));
  ASSERT_TRUE(r.valid) << errors_of(r);
  EXPECT_EQ(warnings_of(r), "");
  const auto& t = r.summary.get<PickleSummary>()->tensors;
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0].name, "model.embed.weight");
  EXPECT_EQ(t[0].dtype, "BF16");
  EXPECT_EQ(t[0].parameters, 80u);
  EXPECT_EQ(t[0].bytes, 160u);
  EXPECT_EQ(t[1].dtype, "F16");
  EXPECT_EQ(t[2].shape, std::vector<std::uint64_t>{});
  EXPECT_EQ(t[2].parameters, 1u);
  EXPECT_EQ(t[2].storage, "2");
  ASSERT_EQ(r.summary.get<PickleSummary>()->storages.size(), 3u);
  EXPECT_EQ(r.summary.get<PickleSummary>()->storages[0].numel, 80u);
  EXPECT_EQ(r.summary.get<PickleSummary>()->storages[0].location, "cpu");
  // Row-major strides (8, 1), (1) and () are contiguous.
  EXPECT_TRUE(t[0].contiguous && t[1].contiguous && t[2].contiguous);
}

// The totals count the tensors past the list's bound too, and saturate rather than wrap.
TEST(PickleStream, TotalsCountEveryTensor) {
  tensorgate::Limits limits;
  limits.pickle.max_tensors = 1;
  auto r = check_pickle(state_dict_pickle({{"a", "BFloat16Storage", {10, 8}}, {"b", "FloatStorage", {8}}}), limits);
  ASSERT_EQ(r.summary.get<PickleSummary>()->tensors.size(), 1u);
  EXPECT_EQ(r.summary.get<PickleSummary>()->tensors_dropped, 1u);
  EXPECT_EQ(r.summary.get<PickleSummary>()->parameters, 88u);
  EXPECT_EQ(r.summary.get<PickleSummary>()->bytes, 192u);
  const std::uint64_t big = std::uint64_t{1} << 40;
  r = check_pickle(state_dict_pickle({{"a", "FloatStorage", {big, big}}, {"b", "FloatStorage", {big, big}}}));
  EXPECT_EQ(r.summary.get<PickleSummary>()->parameters, UINT64_MAX);
  EXPECT_EQ(r.summary.get<PickleSummary>()->bytes, UINT64_MAX);
}

TEST(PickleStream, TransposedStrideIsNotContiguous) {
  std::string p = state_dict_pickle({{"w", "FloatStorage", {2, 3}}});
  const std::string strides = "(K\x03K\x01t";  // MARK, 3, 1, TUPLE
  ASSERT_NE(p.find(strides), std::string::npos);
  EXPECT_TRUE(check_pickle(p).summary.get<PickleSummary>()->tensors.at(0).contiguous);
  p.replace(p.find(strides), strides.size(), "(K\x01K\x02t");  // a transposed [3, 2]'s view
  const auto r = check_pickle(p);
  EXPECT_EQ(errors_of(r), "");
  EXPECT_FALSE(r.summary.get<PickleSummary>()->tensors.at(0).contiguous);
}

TEST(PickleStream, EverySplitGivesTheSameReport) {
  const std::vector<std::string> inputs = {
      state_dict_pickle({{"a", "FloatStorage", {2, 2}}}),
      PickleBuilder().proto(4).frame(30).str("os").memoize().str("system").stack_global().stop().bytes(),
      PickleBuilder().line('V', "\\u006fs").line('S', "'system'").stack_global().line('I', "123456789012345678901234").stop().bytes(),
      legacy_torch_stream({{"w", "FloatStorage", {2}}}),
  };
  for (const std::string& in : inputs) {
    const std::string want = render(check_pickle(in));
    for (std::size_t a = 1; a < in.size(); a += 3)
      for (std::size_t b = a + 1; b < in.size(); b += 5)
        ASSERT_EQ(render(feed_split([] { return tensorgate::make_pickle_validator(); }, in, {a, b})), want) << a << " " << b;
  }
}

TEST(PickleStream, LongStringsStreamWithoutBeingKept) {
  const std::string big(1 << 20, 'x');
  const auto r = check_pickle(PickleBuilder().proto(4).binunicode8(big).bytes(std::string(70000, 'y')).op(0x86).stop().bytes());
  EXPECT_TRUE(r.valid);
  // ... and a STACK_GLOBAL of such a string is a hostile shape, never a silent accept.
  const auto sg = check_pickle(PickleBuilder().proto(4).str("os").str(std::string(300, 's')).stack_global().stop().bytes());
  EXPECT_EQ(errors_of(sg), "PK.dangerous-global");
}

TEST(PickleStream, CapacityLimitsAbort) {
  tensorgate::Limits limits;
  limits.pickle.max_stack = 8;
  PickleBuilder deep;
  deep.proto(2);
  for (int i = 0; i < 20; ++i) deep.op('N');
  auto r = tensorgate::validate_pickle(deep.bytes(), limits);
  ASSERT_TRUE(r.aborted);
  EXPECT_EQ(r.aborted->limit, "pickle-stack");
  EXPECT_FALSE(r.valid);

  limits = {};
  limits.pickle.max_memo = 4;
  PickleBuilder memo;
  memo.proto(4).op('N');
  for (int i = 0; i < 10; ++i) memo.memoize();
  r = tensorgate::validate_pickle(memo.bytes(), limits);
  ASSERT_TRUE(r.aborted);
  EXPECT_EQ(r.aborted->limit, "pickle-memo");

  limits = {};
  limits.pickle.max_kept_bytes = 16;
  r = tensorgate::validate_pickle(
      PickleBuilder().proto(4).str("0123456789abcdef").str("os").str("system").stack_global().stop().bytes(), limits);
  ASSERT_TRUE(r.aborted);
  EXPECT_EQ(r.aborted->limit, "pickle-kept-bytes");
}

// Kept strings and tuples nothing refers to any more are collected: a pickle whose dropped
// strings add up to three times Limits::pickle.max_kept_bytes still resolves a STACK_GLOBAL of
// fresh strings after them (before collection it aborted: pickle-kept-bytes), and what the memo
// holds (strings, a tuple of strings) survives every collection and renumbering.
TEST(PickleStream, StringsNothingRefersToAreCollected) {
  tensorgate::Limits limits;
  limits.pickle.max_kept_bytes = 64 << 10;
  PickleBuilder b;
  b.proto(4).str("builtins").put(1).str("eval").put(2);
  b.mark().str("storage").global("torch", "FloatStorage").str("key-0").str("cpu").integer(4).tuple().put(3).op('0');
  b.op(']');  // a list that takes the garbage
  for (int batch = 0; batch < 100; ++batch) {
    b.mark();
    for (int k = 0; k < 100; ++k) {
      b.str("transient-string-" + std::to_string(batch * 100 + k));
      if (k % 10 == 0) b.str("in-a-tuple").str("dropped").tuple_n(2).op('0');
    }
    b.op('e');  // APPENDS: the strings are dropped
  }
  b.op('0');
  b.str("os").str("system").stack_global().op('0');     // fresh strings, kept after collecting
  b.get(1).get(2).stack_global().op('0');                // the memo's strings, renumbered
  b.get(3).op('Q').op('0');                              // the memo's tuple: a storage
  const std::string bytes = b.op('N').stop().bytes();
  ASSERT_GT(bytes.size(), 3 * limits.pickle.max_kept_bytes);

  const auto r = tensorgate::validate_pickle(bytes, limits);
  ASSERT_FALSE(r.aborted) << r.aborted->message;
  EXPECT_EQ(errors_of(r), "PK.dangerous-global PK.dangerous-global");
  EXPECT_NE(r.findings[0].message.find("os.system"), std::string::npos) << r.findings[0].message;
  EXPECT_NE(r.findings[1].message.find("builtins.eval"), std::string::npos) << r.findings[1].message;
  ASSERT_EQ(r.summary.get<PickleSummary>()->storages.size(), 1u);
  EXPECT_EQ(r.summary.get<PickleSummary>()->storages[0].key, "key-0");
  EXPECT_EQ(r.summary.get<PickleSummary>()->storages[0].location, "cpu");
  EXPECT_EQ(r.summary.get<PickleSummary>()->storages[0].numel, 4u);

  // Collections happen at chunk-independent points (between opcodes, by what is kept).
  const std::string want = render(r);
  for (const std::size_t cut : {std::size_t{1}, bytes.size() / 3, bytes.size() - 7}) {
    ASSERT_EQ(render(feed_split([&] { return tensorgate::make_pickle_validator(limits); }, bytes, {cut})), want) << cut;
  }
}

TEST(PickleStream, BytesWantedStopsAfterTheLastPickle) {
  auto v = tensorgate::make_pickle_validator();
  EXPECT_GT(v->bytes_wanted(), 0u);
  const std::string legacy = legacy_torch_stream({{"w", "FloatStorage", {4}}});
  v->feed(std::string_view(legacy).substr(0, legacy.size() - 24));
  EXPECT_EQ(v->bytes_wanted(), 0u);  // the storages are only counted
  v->skip(24);
  const auto r = v->finish();
  EXPECT_TRUE(r.valid);
  EXPECT_EQ(r.bytes_seen, legacy.size());
}

}  // namespace
