#include "savedmodel/content_probe.hpp"

#include <cstdint>
#include <optional>

namespace tensorgate::detail::savedmodel {
namespace {

struct Varint {
  std::uint64_t value;
  std::size_t end;
};
// A varint at `pos`: nullopt when the prefix ends inside it or it runs past 10 bytes (`broken`
// then says which).
std::optional<Varint> varint_at(std::string_view s, std::size_t pos, bool& broken) {
  std::uint64_t value = 0;
  for (unsigned i = 0; i < 10; ++i) {
    if (pos + i >= s.size()) return std::nullopt;
    const auto b = static_cast<unsigned char>(s[pos + i]);
    value |= static_cast<std::uint64_t>(b & 0x7F) << (7 * i);
    if (!(b & 0x80)) return Varint{value, pos + i + 1};
  }
  broken = true;
  return std::nullopt;
}

// MetaGraphDef's fields 1-7 are all messages or maps: length-delimited.
bool meta_graph_tag(unsigned char b) { return (b & 7) == 2 && (b >> 3) >= 1 && (b >> 3) <= 7; }

constexpr std::string_view kKerasIdentifier = "_tf_keras";

ProbeVerdict probe_saved_model(std::string_view s, bool complete) {
  const ProbeVerdict short_input = complete ? ProbeVerdict::no : ProbeVerdict::undecided;
  bool broken = false;
  const std::optional<Varint> length = varint_at(s, 3, broken);
  if (!length) return broken ? ProbeVerdict::no : short_input;
  if (length->end >= s.size()) return short_input;
  return meta_graph_tag(static_cast<unsigned char>(s[length->end])) ? ProbeVerdict::yes : ProbeVerdict::no;
}

// The first object's fields up to its identifier (field 4): node_id (2, a varint) and node_path
// (3) may come before it.
ProbeVerdict probe_keras_metadata(std::string_view s, bool complete) {
  const ProbeVerdict short_input = complete ? ProbeVerdict::no : ProbeVerdict::undecided;
  bool broken = false;
  const std::optional<Varint> object = varint_at(s, 1, broken);
  if (!object) return broken ? ProbeVerdict::no : short_input;
  std::size_t pos = object->end;
  for (int field = 0; field < 3; ++field) {
    const std::optional<Varint> tag = varint_at(s, pos, broken);
    if (!tag) return broken ? ProbeVerdict::no : short_input;
    const std::optional<Varint> value = varint_at(s, tag->end, broken);
    if (!value) return broken ? ProbeVerdict::no : short_input;
    if (tag->value == 0x10) {  // node_id
      pos = value->end;
      continue;
    }
    if (tag->value != 0x1a && tag->value != 0x22) return ProbeVerdict::no;
    if (tag->value == 0x22) {  // identifier
      const std::string_view id = s.substr(value->end, kKerasIdentifier.size());
      if (kKerasIdentifier.substr(0, id.size()) != id) return ProbeVerdict::no;
      return id.size() == kKerasIdentifier.size() ? ProbeVerdict::yes : short_input;
    }
    if (value->value > s.size()) return short_input;
    pos = value->end + value->value;  // past node_path
  }
  return ProbeVerdict::no;
}

}  // namespace

ProbeVerdict probe_savedmodel(std::string_view s, bool complete) {
  const ProbeVerdict short_input = complete ? ProbeVerdict::no : ProbeVerdict::undecided;
  if (s.empty()) return short_input;
  const auto b0 = static_cast<unsigned char>(s[0]);
  if (b0 == 0x0a) return probe_keras_metadata(s, complete);
  if (b0 != 0x08) return ProbeVerdict::no;
  if (s.size() < 3) {
    if (s.size() == 2 && s[1] != 0x01) return ProbeVerdict::no;
    return short_input;
  }
  if (s[1] != 0x01 || static_cast<unsigned char>(s[2]) != 0x12) return ProbeVerdict::no;
  return probe_saved_model(s, complete);
}

}  // namespace tensorgate::detail::savedmodel
