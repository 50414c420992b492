// The protobuf wire reader (core/src/protobuf) over any bytes, under a schema made from the field
// numbers themselves, so that every kind of length-delimited field (skipped, kept, a message,
// packed numbers) is reached at every depth: the input's first bytes choose chunk boundaries
// (fuzz_support.hpp, Split), the rest is the wire bytes. Whole, cut, with skipped data skipped
// unread, the events and the verdict are the same; with the size known the reader refutes no
// later, and a well-formed input reads the same.
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "fuzz_support.hpp"
#include "protobuf/wire_reader.hpp"

namespace {

using namespace tensorgate::detail::protobuf;

using Event = std::tuple<char, std::uint16_t, std::uint32_t, std::uint64_t, std::uint64_t, std::string>;

struct Recorder final : WireHandler {
  std::vector<Event> events;
  LenChoice on_len(std::uint16_t kind, std::uint32_t field, std::uint64_t length, std::uint64_t pos) override {
    events.emplace_back('l', kind, field, length, pos, std::string());
    switch ((field + kind) % 6) {
      case 0: return {LenAction::skip};
      case 1: return {LenAction::keep};
      case 2: return {LenAction::packed_varint};
      case 3: return {LenAction::packed_fixed32};
      case 4: return {LenAction::packed_fixed64};
      default: return {LenAction::message, static_cast<std::uint16_t>(field % 7 + 1)};
    }
  }
  void on_varint(std::uint16_t kind, std::uint32_t field, std::uint64_t value, std::uint64_t pos) override {
    events.emplace_back('v', kind, field, value, pos, std::string());
  }
  void on_fixed32(std::uint16_t kind, std::uint32_t field, std::uint32_t value, std::uint64_t pos) override {
    events.emplace_back('4', kind, field, value, pos, std::string());
  }
  void on_fixed64(std::uint16_t kind, std::uint32_t field, std::uint64_t value, std::uint64_t pos) override {
    events.emplace_back('8', kind, field, value, pos, std::string());
  }
  void on_bytes(std::uint16_t kind, std::uint32_t field, std::string_view bytes, std::uint64_t pos) override {
    events.emplace_back('b', kind, field, bytes.size(), pos, std::string(bytes));
  }
  void on_message_end(std::uint16_t kind, std::uint64_t pos) override {
    events.emplace_back('e', kind, 0, 0, pos, std::string());
  }
};

struct Outcome {
  std::vector<Event> events;
  std::optional<WireFault> fault;
  std::uint64_t position = 0;
};

constexpr WireLimits kLimits{16, 4096};

const unsigned char* bytes_of(std::string_view s) { return reinterpret_cast<const unsigned char*>(s.data()); }

// Fed in the pieces between `cuts`; `skip_data`: a skipped field's bytes are skipped unread.
Outcome run(std::string_view file, const std::vector<std::size_t>& cuts, std::optional<std::uint64_t> total,
            bool skip_data) {
  Recorder r;
  WireReader reader(r, kLimits);
  if (total) reader.set_total_size(*total);
  std::size_t at = 0;
  std::vector<std::size_t> ends(cuts);
  ends.push_back(file.size());
  for (const std::size_t end : ends) {
    while (at < end) {
      if (skip_data && reader.skippable()) {
        const std::uint64_t n = std::min<std::uint64_t>(reader.skippable(), end - at);
        reader.skip(n);
        at += static_cast<std::size_t>(n);
        continue;
      }
      const std::size_t before = static_cast<std::size_t>(reader.position());
      if (!reader.feed({bytes_of(file) + at, end - at})) break;
      tgfuzz::require(reader.position() - before == end - at, "feed-takes-the-whole-chunk");
      at = end;
    }
    if (reader.fault() || reader.stopped()) break;
    tgfuzz::require(reader.depth() <= kLimits.max_depth, "depth-bounded");
  }
  reader.finish();
  tgfuzz::require(reader.position() <= file.size(), "position-within-input");
  return {std::move(r.events), reader.fault(), reader.position()};
}

bool same(const std::optional<WireFault>& a, const std::optional<WireFault>& b) {
  return a.has_value() == b.has_value() && (!a || (a->error == b->error && a->pos == b->pos));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const tgfuzz::Split s = tgfuzz::split_of(tgfuzz::as_text(data, size));
  const Outcome whole = run(s.file, {}, std::nullopt, false);
  if (whole.fault) tgfuzz::require(!wire_error_text(whole.fault->error).empty(), "fault-has-text");
  const Outcome cut = run(s.file, s.cuts, std::nullopt, false);
  tgfuzz::require(cut.events == whole.events && same(cut.fault, whole.fault), "chunking-invariant");
  const Outcome skipped = run(s.file, s.cuts, std::nullopt, true);
  tgfuzz::require(skipped.events == whole.events && same(skipped.fault, whole.fault), "skip-invariant");
  // The size known: a well-formed input reads the same; a malformed one is refuted no later.
  const Outcome sized = run(s.file, s.cuts, s.file.size(), false);
  if (!whole.fault) {
    tgfuzz::require(sized.events == whole.events && !sized.fault, "size-hint-changes-nothing-when-well-formed");
  } else {
    tgfuzz::require(sized.fault.has_value(), "size-hint-still-refutes");
    tgfuzz::require(sized.events.size() <= whole.events.size() &&
                        std::equal(sized.events.begin(), sized.events.end(), whole.events.begin()),
                    "size-hint-refutes-no-later");
  }
  return 0;
}
