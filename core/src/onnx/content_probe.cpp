#include "onnx/content_probe.hpp"

#include <cstdint>
#include <optional>

namespace tensorgate::detail::onnx {
namespace {

// ModelProto's fields and their wire types (0 varint, 2 length-delimited): ir_version,
// producer_name, producer_version, domain, model_version, doc_string, graph, opset_import,
// metadata_props, training_info, functions, configuration.
std::optional<unsigned> wire_type_of(std::uint64_t field) {
  switch (field) {
    case 1: case 5: return 0;
    case 2: case 3: case 4: case 6: case 7: case 8: case 14: case 20: case 25: case 26: return 2;
    default: return std::nullopt;
  }
}

// A varint at `pos`: its value and the position after it; nullopt when the prefix ends inside
// it or it runs past 10 bytes.
struct Varint {
  std::uint64_t value;
  std::size_t end;
};
std::optional<Varint> varint_at(std::string_view s, std::size_t pos) {
  std::uint64_t value = 0;
  for (unsigned i = 0; i < 10 && pos + i < s.size(); ++i) {
    const auto b = static_cast<unsigned char>(s[pos + i]);
    value |= static_cast<std::uint64_t>(b & 0x7F) << (7 * i);
    if (!(b & 0x80)) return Varint{value, pos + i + 1};
  }
  return std::nullopt;
}

}  // namespace

ProbeVerdict probe_model(std::string_view prefix, bool complete) {
  const ProbeVerdict short_input = complete ? ProbeVerdict::no : ProbeVerdict::undecided;
  if (prefix.empty()) return short_input;
  if (static_cast<unsigned char>(prefix[0]) != 0x08) return ProbeVerdict::no;
  if (prefix.size() < 2) return short_input;
  const auto ir = static_cast<unsigned char>(prefix[1]);
  if (ir == 0 || ir > 0x7F) return ProbeVerdict::no;
  const std::optional<Varint> tag = varint_at(prefix, 2);
  if (!tag) return prefix.size() - 2 >= 10 ? ProbeVerdict::no : short_input;
  const std::optional<unsigned> wire_type = wire_type_of(tag->value >> 3);
  if (!wire_type || *wire_type != (tag->value & 7)) return ProbeVerdict::no;
  // The second field's value (a varint, or a length) must be well formed where it is.
  if (!varint_at(prefix, tag->end)) return prefix.size() - tag->end >= 10 ? ProbeVerdict::no : short_input;
  return ProbeVerdict::yes;
}

}  // namespace tensorgate::detail::onnx
