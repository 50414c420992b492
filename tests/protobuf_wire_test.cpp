// The protobuf wire reader (core/src/protobuf): what it hands its handler, the same whatever the
// chunks, and each way wire bytes can be malformed refuted with its position.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "protobuf/wire_reader.hpp"
#include "wire_builder.hpp"

namespace {

using namespace tensorgate::detail::protobuf;
using namespace tgtest::wire;

// A schema by (message kind, field): what to do with a length-delimited field. Every event is
// written down as a line.
struct Recorder final : WireHandler {
  std::function<LenChoice(std::uint16_t, std::uint32_t)> schema = [](std::uint16_t, std::uint32_t) {
    return LenChoice{LenAction::skip};
  };
  std::vector<std::string> events;
  WireReader* reader = nullptr;
  std::size_t stop_after = SIZE_MAX;

  void note(std::string e) {
    events.push_back(std::move(e));
    if (events.size() >= stop_after && reader) reader->stop();
  }
  static std::string at(std::uint16_t kind, std::uint32_t field, std::uint64_t pos) {
    return std::to_string(kind) + "." + std::to_string(field) + "@" + std::to_string(pos);
  }
  LenChoice on_len(std::uint16_t kind, std::uint32_t field, std::uint64_t length, std::uint64_t pos) override {
    note("len " + at(kind, field, pos) + " " + std::to_string(length));
    return schema(kind, field);
  }
  void on_varint(std::uint16_t kind, std::uint32_t field, std::uint64_t value, std::uint64_t pos) override {
    note("varint " + at(kind, field, pos) + " " + std::to_string(value));
  }
  void on_fixed32(std::uint16_t kind, std::uint32_t field, std::uint32_t value, std::uint64_t pos) override {
    note("fixed32 " + at(kind, field, pos) + " " + std::to_string(value));
  }
  void on_fixed64(std::uint16_t kind, std::uint32_t field, std::uint64_t value, std::uint64_t pos) override {
    note("fixed64 " + at(kind, field, pos) + " " + std::to_string(value));
  }
  void on_bytes(std::uint16_t kind, std::uint32_t field, std::string_view bytes, std::uint64_t pos) override {
    note("bytes " + at(kind, field, pos) + " " + std::string(bytes));
  }
  void on_message_end(std::uint16_t kind, std::uint64_t pos) override {
    note("end " + std::to_string(kind) + "@" + std::to_string(pos));
  }
};

struct Outcome {
  std::vector<std::string> events;
  std::optional<WireFault> fault;
};

// Reads `bytes` in pieces of `piece` bytes (0: whole), then finishes.
Outcome read(std::string_view bytes, const std::function<LenChoice(std::uint16_t, std::uint32_t)>& schema,
             std::size_t piece = 0, std::optional<std::uint64_t> total = std::nullopt, WireLimits limits = {}) {
  Recorder r;
  r.schema = schema;
  WireReader reader(r, limits);
  if (total) reader.set_total_size(*total);
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::size_t step = piece ? piece : bytes.size();
  for (std::size_t i = 0; i < bytes.size(); i += step)
    if (!reader.feed({p + i, std::min(step, bytes.size() - i)})) break;
  reader.finish();
  return {r.events, reader.fault()};
}

const auto kAllSkipped = [](std::uint16_t, std::uint32_t) { return LenChoice{LenAction::skip}; };

// field 1 varint, field 2 a message of kind 7 (a kept name, packed varints, packed floats, an
// empty message), field 3 fixed64, field 4 skipped data.
std::string sample() {
  const std::string inner = field_len(1, "name") + field_len(2, varint(1) + varint(300) + varint(0)) +
                            field_len(3, le(0x3f800000, 4) + le(0x40000000, 4)) + field_len(4, "");
  return field_varint(1, 150) + field_len(2, inner) + field_fixed64(3, 1ull << 40) + field_fixed32(5, 7) +
         field_len(4, std::string(1000, 'x'));
}
LenChoice sample_schema(std::uint16_t kind, std::uint32_t field) {
  if (kind == 0 && field == 2) return {LenAction::message, 7};
  if (kind == 7 && field == 1) return {LenAction::keep};
  if (kind == 7 && field == 2) return {LenAction::packed_varint};
  if (kind == 7 && field == 3) return {LenAction::packed_fixed32};
  if (kind == 7 && field == 4) return {LenAction::message, 8};
  return {LenAction::skip};
}

TEST(ProtobufWire, HandsEveryFieldToItsHandler) {
  const Outcome o = read(sample(), sample_schema);
  EXPECT_FALSE(o.fault);
  const std::vector<std::string> want{
      "varint 0.1@0 150",
      "len 0.2@3 24",
      "len 7.1@5 4",
      "bytes 7.1@5 name",
      "len 7.2@11 4",
      "varint 7.2@11 1",
      "varint 7.2@11 300",
      "varint 7.2@11 0",
      "len 7.3@17 8",
      "fixed32 7.3@17 1065353216",
      "fixed32 7.3@17 1073741824",
      "len 7.4@27 0",
      "end 8@29",
      "end 7@29",
      "fixed64 0.3@29 1099511627776",
      "fixed32 0.5@38 7",
      "len 0.4@43 1000",
  };
  EXPECT_EQ(o.events, want);
}

TEST(ProtobufWire, EveryChunkingGivesTheSameEvents) {
  const std::string bytes = sample();
  const Outcome whole = read(bytes, sample_schema);
  for (std::size_t piece = 1; piece <= bytes.size(); ++piece) {
    const Outcome o = read(bytes, sample_schema, piece);
    EXPECT_EQ(o.events, whole.events) << "pieces of " << piece;
    EXPECT_FALSE(o.fault) << "pieces of " << piece;
  }
  // With the size known, too.
  EXPECT_EQ(read(bytes, sample_schema, 3, bytes.size()).events, whole.events);
}

TEST(ProtobufWire, ASkippedFieldMayBeSkippedUnread) {
  const std::string head = field_varint(1, 1) + tag(4, 2) + varint(1000);
  Recorder r;
  WireReader reader(r, {});
  reader.feed({reinterpret_cast<const unsigned char*>(head.data()), head.size()});
  EXPECT_EQ(reader.skippable(), 1000u);
  reader.skip(600);
  EXPECT_EQ(reader.skippable(), 400u);
  reader.skip(400);
  EXPECT_EQ(reader.skippable(), 0u);
  const std::string tail = field_varint(2, 5);
  reader.feed({reinterpret_cast<const unsigned char*>(tail.data()), tail.size()});
  EXPECT_TRUE(reader.finish());
  EXPECT_EQ(reader.position(), head.size() + 1000 + tail.size());
  EXPECT_EQ(r.events.back(), "varint 0.2@" + std::to_string(head.size() + 1000) + " 5");
}

TEST(ProtobufWire, AVarintHasAtMostTenBytesAndTheTenthIsZeroOrOne) {
  const std::string top = field_varint(1, UINT64_MAX);  // ten bytes, the last 0x01
  const Outcome ok = read(top, kAllSkipped);
  ASSERT_FALSE(ok.fault);
  EXPECT_EQ(ok.events, std::vector<std::string>{"varint 0.1@0 18446744073709551615"});

  std::string ten_two = tag(1, 0) + std::string(9, '\xff') + '\x02';
  Outcome o = read(ten_two, kAllSkipped);
  ASSERT_TRUE(o.fault);
  EXPECT_EQ(o.fault->error, WireError::bad_varint);
  EXPECT_EQ(o.fault->pos, 0u);

  const std::string eleven = field_varint(1, 1) + tag(2, 0) + std::string(10, '\x80') + '\x00';
  o = read(eleven, kAllSkipped);
  ASSERT_TRUE(o.fault);
  EXPECT_EQ(o.fault->error, WireError::bad_varint);
  EXPECT_EQ(o.fault->pos, 2u);  // the field's tag
}

TEST(ProtobufWire, TagsAreThirtyTwoBitsWithAFieldNumber) {
  Outcome o = read(varint(std::uint64_t{1} << 32) + varint(1), kAllSkipped);
  ASSERT_TRUE(o.fault);
  EXPECT_EQ(o.fault->error, WireError::tag_too_large);
  o = read(field_varint(1, 1) + tag(0, 0) + varint(1), kAllSkipped);
  ASSERT_TRUE(o.fault);
  EXPECT_EQ(o.fault->error, WireError::field_zero);
  EXPECT_EQ(o.fault->pos, 2u);
}

TEST(ProtobufWire, GroupsAndUndefinedWireTypesAreRefused) {
  for (const unsigned wt : {3u, 4u}) {
    const Outcome o = read(tag(9, wt), kAllSkipped);
    ASSERT_TRUE(o.fault) << wt;
    EXPECT_EQ(o.fault->error, WireError::group) << wt;
  }
  for (const unsigned wt : {6u, 7u}) {
    const Outcome o = read(tag(9, wt) + varint(0), kAllSkipped);
    ASSERT_TRUE(o.fault) << wt;
    EXPECT_EQ(o.fault->error, WireError::bad_wire_type) << wt;
  }
}

TEST(ProtobufWire, ALengthPastTheInputIsRefutedAtOnceWhenItsSizeIsKnown) {
  const std::string bytes = field_varint(1, 1) + tag(2, 2) + varint(1u << 30) + "abc";
  Outcome o = read(bytes, kAllSkipped, 0, bytes.size());
  ASSERT_TRUE(o.fault);
  EXPECT_EQ(o.fault->error, WireError::past_end);
  EXPECT_EQ(o.fault->pos, 2u);
  // Without the size, the same input ends inside the field.
  o = read(bytes, kAllSkipped);
  ASSERT_TRUE(o.fault);
  EXPECT_EQ(o.fault->error, WireError::truncated);
  EXPECT_EQ(o.fault->pos, 2u);
  // A fixed-size field too.
  const std::string fixed = field_varint(1, 1) + tag(3, 1) + "abc";
  o = read(fixed, kAllSkipped, 0, fixed.size());
  ASSERT_TRUE(o.fault);
  EXPECT_EQ(o.fault->error, WireError::past_end);
}

TEST(ProtobufWire, AFieldNeverRunsPastTheMessageThatHoldsIt) {
  const auto nested = [](std::uint16_t kind, std::uint32_t field) {
    return kind == 0 && field == 1 ? LenChoice{LenAction::message, 1} : LenChoice{LenAction::skip};
  };
  // A length, a fixed-size value and a varint, each one byte too long for a 4-byte message.
  for (const std::string& inner : {tag(2, 2) + varint(3) + "abc", tag(2, 5) + "abc", tag(2, 0) + "\xff\xff\xff\x01"}) {
    const std::string bytes = field_len(1, inner.substr(0, 4)) + inner.substr(4) + field_varint(3, 1);
    const Outcome o = read(bytes, nested);
    ASSERT_TRUE(o.fault) << inner;
    EXPECT_EQ(o.fault->error, WireError::past_parent) << inner;
    EXPECT_EQ(o.fault->pos, 2u) << inner;  // the inner field's tag
  }
}

TEST(ProtobufWire, PackedValuesFillTheirFieldExactly) {
  const auto packed = [](LenAction a) { return [a](std::uint16_t, std::uint32_t) { return LenChoice{a}; }; };
  Outcome o = read(field_len(1, "abcde"), packed(LenAction::packed_fixed32));
  ASSERT_TRUE(o.fault);
  EXPECT_EQ(o.fault->error, WireError::packed_size);
  o = read(field_len(1, std::string(12, 'a')), packed(LenAction::packed_fixed64));
  ASSERT_TRUE(o.fault);
  EXPECT_EQ(o.fault->error, WireError::packed_size);
  o = read(field_len(1, varint(5) + "\x80"), packed(LenAction::packed_varint));  // the last varint cut
  ASSERT_TRUE(o.fault);
  EXPECT_EQ(o.fault->error, WireError::past_parent);
  o = read(field_len(1, std::string(11, '\xff')), packed(LenAction::packed_varint));
  ASSERT_TRUE(o.fault);
  EXPECT_EQ(o.fault->error, WireError::bad_varint);
}

TEST(ProtobufWire, NestingIsBoundedWithoutRecursion) {
  const auto always_message = [](std::uint16_t, std::uint32_t) { return LenChoice{LenAction::message, 1}; };
  std::string bytes = field_varint(2, 1);
  for (int i = 0; i < 4; ++i) bytes = field_len(1, bytes);
  WireLimits limits;
  limits.max_depth = 4;
  EXPECT_FALSE(read(bytes, always_message, 0, std::nullopt, limits).fault);
  limits.max_depth = 3;
  const Outcome o = read(bytes, always_message, 0, std::nullopt, limits);
  ASSERT_TRUE(o.fault);
  EXPECT_EQ(o.fault->error, WireError::too_deep);
  // Deep input is no deeper stack: 100,000 levels are refused at the bound, one frame at a time.
  std::vector<std::uint64_t> sizes{0};  // each level's content, innermost first
  for (int i = 0; i < 100000; ++i) sizes.push_back(tag(1, 2).size() + varint(sizes.back()).size() + sizes.back());
  std::string deep;
  for (std::size_t i = sizes.size() - 1; i > 0; --i) deep += tag(1, 2) + varint(sizes[i - 1]);
  EXPECT_FALSE(read(deep, always_message, 4096, std::nullopt, WireLimits{200000, 1}).fault);
  const Outcome d = read(deep, always_message, 4096);
  ASSERT_TRUE(d.fault);
  EXPECT_EQ(d.fault->error, WireError::too_deep);
}

TEST(ProtobufWire, KeptFieldsAreBounded) {
  const auto keep = [](std::uint16_t, std::uint32_t) { return LenChoice{LenAction::keep}; };
  WireLimits limits;
  limits.max_kept_bytes = 8;
  EXPECT_FALSE(read(field_len(1, "12345678"), keep, 0, std::nullopt, limits).fault);
  const Outcome o = read(field_len(1, "123456789"), keep, 0, std::nullopt, limits);
  ASSERT_TRUE(o.fault);
  EXPECT_EQ(o.fault->error, WireError::kept_too_large);
}

TEST(ProtobufWire, AMessageCutShortIsTruncated) {
  const auto nested = [](std::uint16_t kind, std::uint32_t field) {
    return kind == 0 && field == 1 ? LenChoice{LenAction::message, 1} : LenChoice{LenAction::skip};
  };
  const std::string whole = field_len(1, field_varint(2, 1) + field_varint(3, 1));
  const Outcome o = read(whole.substr(0, whole.size() - 2), nested);
  ASSERT_TRUE(o.fault);
  EXPECT_EQ(o.fault->error, WireError::truncated);
  EXPECT_EQ(o.fault->pos, whole.size() - 2);
  const Outcome fewer = read(whole, nested, 0, whole.size() + 1);
  ASSERT_TRUE(fewer.fault);
  EXPECT_EQ(fewer.fault->error, WireError::truncated);
}

TEST(ProtobufWire, AHandlerMayStopTheReader) {
  Recorder r;
  r.stop_after = 2;
  WireReader reader(r, {});
  r.reader = &reader;
  const std::string bytes = field_varint(1, 1) + field_varint(2, 2) + field_varint(3, 3);
  EXPECT_FALSE(reader.feed({reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()}));
  EXPECT_TRUE(reader.stopped());
  EXPECT_TRUE(reader.finish());
  EXPECT_EQ(r.events.size(), 2u);
}

TEST(ProtobufWire, EveryErrorHasItsText) {
  for (const WireError e : {WireError::bad_varint, WireError::tag_too_large, WireError::field_zero, WireError::group,
                            WireError::bad_wire_type, WireError::past_end, WireError::past_parent, WireError::packed_size,
                            WireError::too_deep, WireError::truncated, WireError::kept_too_large})
    EXPECT_NE(wire_error_text(e), "malformed");
}

}  // namespace
