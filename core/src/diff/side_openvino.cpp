// An OpenVINO model's side: its Const layers as the validator's summary lists them (file order;
// a name met before is kept once). Their values are in the .bin beside model.xml, which a side's
// byte source does not read: compared by dtype and shape only, and the pair says why not by value.
#include <array>
#include <functional>

#include "side.hpp"
#include "tensorgate/openvino.hpp"

namespace tensorgate::detail::diff {
namespace {

// OpenVINO's element type names beside the safetensors table's for the same type, so that an
// f32 Const beside a safetensors F32 tensor is no dtype change.
constexpr std::array<std::pair<std::string_view, std::string_view>, 13> kCommon{{
    {"f32", "F32"}, {"f64", "F64"}, {"f16", "F16"}, {"bf16", "BF16"}, {"i8", "I8"}, {"i16", "I16"}, {"i32", "I32"},
    {"i64", "I64"}, {"u8", "U8"}, {"u16", "U16"}, {"u32", "U32"}, {"u64", "U64"}, {"boolean", "BOOL"},
}};

}  // namespace

void collect_openvino(const OpenVinoSummary& s, std::size_t file, Side& out, const std::function<bool(std::string_view)>& first) {
  for (const OpenVinoConst& c : s.const_layers) {
    if (!first(c.name)) continue;
    SideTensor t;
    t.info.name = c.name;
    t.info.dtype = c.element_type;
    t.info.shape = c.shape;
    std::uint64_t elements = 1;
    for (const std::uint64_t d : c.shape) elements *= d;
    t.info.parameters = elements;
    t.info.bytes = c.size;
    t.info.file = file;
    t.format = Format::openvino;
    for (const auto& [ov, common] : kCommon)
      if (ov == c.element_type) t.common = common;
    t.elements = elements;
    t.values_unread = "its values are in the .bin beside model.xml, which the diff does not read: compared by dtype and shape only";
    out.tensors.push_back(std::move(t));
  }
}

}  // namespace tensorgate::detail::diff
