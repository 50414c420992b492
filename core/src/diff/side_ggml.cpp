// A legacy GGML file's side (whisper.cpp's models, llama.cpp's files before GGUF): its tensor
// records as the validator's summary lists them. Their types are ggml's, named as GGUF's are, so
// a tensor converted to GGUF unchanged compares equal; the data is one run at a known offset.
#include "side.hpp"
#include "tensorgate/ggml.hpp"
#include "tensorgate/gguf.hpp"

namespace tensorgate::detail::diff {

void collect_ggml(const GgmlSummary& s, std::size_t file, Side& out, const std::function<bool(std::string_view)>& first) {
  for (const GgmlTensor& g : s.tensors) {
    if (!first(g.name)) continue;
    SideTensor t;
    t.info.name = g.name;
    t.info.dtype = g.type;
    t.info.shape.assign(g.dims.rbegin(), g.dims.rend());  // ne0 is the innermost
    std::uint64_t elements = 1;
    for (const std::uint64_t d : g.dims) elements *= d;  // the validator bounded the product
    t.info.parameters = elements;
    t.info.bytes = g.bytes;
    t.info.file = file;
    t.info.header_offset = g.offset;
    for (const GgmlTypeInfo& info : ggml_types())
      if (info.name == g.type) t.encoding = ggml_encoding(info.id, false);
    t.format = Format::ggml;
    t.position = g.offset;
    t.elements = elements;
    out.tensors.push_back(std::move(t));
  }
}

}  // namespace tensorgate::detail::diff
