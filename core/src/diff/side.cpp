// A side's tensors from its files' reports: one collector per summary kind.
#include "side.hpp"

#include <algorithm>
#include <boost/unordered/unordered_flat_set.hpp>
#include <map>

#include "pairing/numbers.hpp"
#include "common/seeded_hash.hpp"
#include "tensorgate/zip.hpp"

namespace tensorgate::detail::diff {
namespace {

struct NameHash {
  std::size_t operator()(std::string_view s) const { return seeded_hash(s); }
};
using NameSet = boost::unordered_flat_set<std::string_view, NameHash>;

std::uint64_t product(std::span<const std::uint64_t> shape) {
  std::uint64_t n = 1;
  for (const std::uint64_t d : shape) n *= d;  // exact: ST4 and GG4 checked the products
  return n;
}

void collect_safetensors(const SafetensorsSummary& s, std::size_t file, Side& out, NameSet& seen) {
  const TensorTable& table = *s.tensors;
  for (std::size_t i = 0; i < table.size(); ++i) {
    const TensorView v = table[i];
    if (!seen.insert(v.name).second) continue;
    SideTensor t;
    t.info.name = std::string(v.name);
    t.info.dtype = std::string(dtype_info(v.dtype).name);
    t.info.shape.assign(v.shape.begin(), v.shape.end());
    t.info.parameters = product(v.shape);
    t.info.bytes = v.end - v.begin;
    t.info.file = file;
    t.info.header_offset = 8 + v.header_pos;
    t.encoding = safetensors_encoding(v.dtype);
    t.format = Format::safetensors;
    t.position = 8 + s.header_length + v.begin;
    t.elements = t.info.parameters;
    out.tensors.push_back(std::move(t));
  }
}

void collect_gguf(const GgufSummary& g, std::size_t file, Side& out, NameSet& seen) {
  const GgufTensorTable& table = *g.tensors;
  for (std::size_t i = 0; i < table.size(); ++i) {
    const GgufTensorView v = table[i];
    if (!seen.insert(v.name).second) continue;
    SideTensor t;
    t.info.name = std::string(v.name);
    t.info.dtype = std::string(ggml_type_info(v.type)->name);
    t.info.shape.assign(v.shape.rbegin(), v.shape.rend());  // ne0 is the innermost
    t.info.parameters = product(v.shape);
    t.info.bytes = v.bytes;
    t.info.file = file;
    t.info.header_offset = table.record(i).info_pos;
    t.encoding = ggml_encoding(v.type, g.big_endian);
    t.format = Format::gguf;
    t.position = g.data_offset + v.offset;
    t.elements = t.info.parameters;
    out.tensors.push_back(std::move(t));
  }
}

// Where a PyTorch checkpoint tensor's bytes are, or why --values cannot read them. A torch.save
// archive stores each storage as an entry, data/<key>; a contiguous tensor is one run of its
// storage from storage_offset. Deflated entries, other views and the legacy stream's records
// are not read.
std::string_view place_tensor(const PickleTensor& pt, const ZipSummary* zip,
                              const std::map<std::string_view, const ZipStorage*>& storages, SideTensor& t) {
  if (!zip) return "the values of a bare pickle stream (a legacy torch.save stream, a .pkl) are not read";
  if (!pt.contiguous) return "a tensor that is not a contiguous view of its storage is not read";
  const auto d = dtype_from_name(pt.dtype);
  if (!d || dtype_info(*d).bits % 8) return "a storage of this dtype is not read";
  const auto it = storages.find(pt.storage);
  if (it == storages.end() || it->second->entry.empty()) return "the archive has no entry for its storage";
  const ZipStorage& s = *it->second;
  if (!s.data_offset) return "its storage entry is compressed (only stored entries are read)";
  const std::uint64_t element = dtype_info(*d).bits / 8;
  if (pt.storage_offset > s.bytes / element || pt.bytes > s.bytes - pt.storage_offset * element)
    return "the tensor runs past its storage";
  t.position = *s.data_offset + pt.storage_offset * element;
  return {};
}

// A PyTorch checkpoint's state dict as its pickle rebuilds it (a zip archive's data.pkl or the
// legacy stream). Its names are the model's own, as in safetensors.
void collect_pickle(const PickleSummary& p, const ZipSummary* zip, Format format, std::size_t file, Side& out,
                    NameSet& seen) {
  std::map<std::string_view, const ZipStorage*> storages;
  if (zip)
    for (const ZipStorage& s : zip->storages) storages.emplace(s.key, &s);
  for (const PickleTensor& pt : p.tensors) {
    if (pt.name.empty() || !seen.insert(pt.name).second) continue;
    SideTensor t;
    t.info.name = pt.name;
    t.info.dtype = pt.dtype;
    t.info.shape = pt.shape;
    t.info.parameters = pt.parameters;
    t.info.bytes = pt.bytes;
    t.info.file = file;
    if (const auto d = dtype_from_name(pt.dtype)) t.encoding = safetensors_encoding(*d);
    t.format = format;
    t.values_unread = place_tensor(pt, zip, storages, t);
    t.elements = pt.parameters;
    out.tensors.push_back(std::move(t));
  }
}

}  // namespace

Encoding safetensors_encoding(Dtype d) {
  const DtypeInfo& info = dtype_info(d);
  const auto whole = [](ElementKind k, std::uint32_t bytes) { return Encoding{k, 1, bytes}; };
  switch (d) {
    case Dtype::F64: return whole(ElementKind::f64, 8);
    case Dtype::F32: return whole(ElementKind::f32, 4);
    case Dtype::F16: return whole(ElementKind::f16, 2);
    case Dtype::BF16: return whole(ElementKind::bf16, 2);
    case Dtype::I8: return whole(ElementKind::i8, 1);
    case Dtype::I16: return whole(ElementKind::i16, 2);
    case Dtype::I32: return whole(ElementKind::i32, 4);
    case Dtype::I64: return whole(ElementKind::i64, 8);
    case Dtype::U8: return whole(ElementKind::u8, 1);
    case Dtype::U16: return whole(ElementKind::u16, 2);
    case Dtype::U32: return whole(ElementKind::u32, 4);
    case Dtype::U64: return whole(ElementKind::u64, 8);
    case Dtype::BOOL: return whole(ElementKind::boolean, 1);
    default: break;
  }
  // F8 variants and complex numbers as whole elements; sub-byte types (F4, F6) as the
  // smallest run of elements that fills whole bytes (2 of 4 bits, 4 of 6 bits).
  if (info.bits % 8 == 0) return Encoding{ElementKind::opaque, 1, info.bits / 8};
  std::uint32_t block = 1;
  while (block * info.bits % 8) ++block;
  return Encoding{ElementKind::opaque, block, block * info.bits / 8};
}

Encoding ggml_encoding(std::uint32_t type, bool big_endian) {
  using namespace pairing;
  const GgmlTypeInfo* info = ggml_type_info(type);
  Encoding e{ElementKind::opaque, info->block_size, info->type_size};
  if (big_endian) return e;  // decoded only as little-endian; big-endian files compare bytes
  switch (type) {
    case kGgmlF32: e.kind = ElementKind::f32; break;
    case kGgmlF16: e.kind = ElementKind::f16; break;
    case kGgmlBF16: e.kind = ElementKind::bf16; break;
    case kGgmlF64: e.kind = ElementKind::f64; break;
    case kGgmlI8: e.kind = ElementKind::i8; break;
    case kGgmlI16: e.kind = ElementKind::i16; break;
    case kGgmlI32: e.kind = ElementKind::i32; break;
    case kGgmlI64: e.kind = ElementKind::i64; break;
    case kGgmlQ8_0: e.kind = ElementKind::q8_0; break;
    case kGgmlQ4_0: e.kind = ElementKind::q4_0; break;
    default: break;
  }
  return e;
}

std::optional<std::string> collect_side(const DiffSide& in, Side& out) {
  out.in = &in;
  NameSet seen;
  if (in.files.empty()) return in.path + " has no weights files";
  for (std::size_t f = 0; f < in.files.size(); ++f) {
    const DiffFile& file = in.files[f];
    const Report* r = file.report;
    if (!r || !r->valid) return file.path + " is invalid (its findings say why)";
    const SafetensorsSummary* st = r->summary.get<SafetensorsSummary>();
    const GgufSummary* gguf = r->summary.get<GgufSummary>();
    if (st && st->tensors) {
      out.all_gguf = false;
      collect_safetensors(*st, f, out, seen);
    } else if (gguf && gguf->tensors) {
      out.all_safetensors = false;
      if (!out.first_gguf) out.first_gguf = gguf;
      collect_gguf(*gguf, f, out, seen);
    } else if (const OnnxSummary* onnx = r->summary.get<OnnxSummary>()) {
      out.all_safetensors = out.all_gguf = false;
      if (onnx->initializers_not_listed)
        return file.path + " has more initializers than its report lists (" +
               std::to_string(onnx->initializers_not_listed) + " past Limits::onnx.max_listed_tensors)";
      collect_onnx(*onnx, f, out, [&](std::string_view name) { return seen.insert(name).second; });
    } else if (const GgmlSummary* ggml = r->summary.get<GgmlSummary>()) {
      out.all_safetensors = out.all_gguf = false;
      if (ggml->tensors_not_listed)
        return file.path + " has more tensors than its report lists (" + std::to_string(ggml->tensors_not_listed) +
               " past Limits::ggml.max_listed_tensors)";
      collect_ggml(*ggml, f, out, [&](std::string_view name) { return seen.insert(name).second; });
    } else if (const TfliteSummary* tfl = r->summary.get<TfliteSummary>()) {
      out.all_safetensors = out.all_gguf = false;
      if (tfl->tensors_not_listed)
        return file.path + " has more tensors than its report lists (" + std::to_string(tfl->tensors_not_listed) +
               " past Limits::tflite.max_listed_tensors)";
      collect_tflite(*tfl, f, out, [&](std::string_view name) { return seen.insert(name).second; });
    } else if (const CTranslate2Summary* ct = r->summary.get<CTranslate2Summary>()) {
      out.all_safetensors = out.all_gguf = false;
      if (ct->variables_not_listed)
        return file.path + " has more variables than its report lists (" + std::to_string(ct->variables_not_listed) +
               " past Limits::ctranslate2.max_listed_variables)";
      collect_ctranslate2(*ct, f, out, [&](std::string_view name) { return seen.insert(name).second; });
    } else if (const FlaxSummary* flax = r->summary.get<FlaxSummary>()) {
      out.all_safetensors = out.all_gguf = false;
      if (flax->arrays_not_listed)
        return file.path + " has more arrays than its report lists (" + std::to_string(flax->arrays_not_listed) +
               " past Limits::flax.max_listed_arrays)";
      collect_flax(*flax, f, out, [&](std::string_view name) { return seen.insert(name).second; });
    } else if (const OpenVinoSummary* ir = r->summary.get<OpenVinoSummary>()) {
      out.all_safetensors = out.all_gguf = false;
      if (ir->const_layers_not_listed)
        return file.path + " has more Const layers than its report lists (" + std::to_string(ir->const_layers_not_listed) +
               " past Limits::openvino.max_listed_layers)";
      collect_openvino(*ir, f, out, [&](std::string_view name) { return seen.insert(name).second; });
    } else if (const PickleSummary* state = torch_state(r->summary); state && !state->tensors.empty()) {
      out.all_safetensors = out.all_gguf = false;
      collect_pickle(*state, r->summary.get<ZipSummary>(), r->format, f, out, seen);
    } else {
      return file.path + " has no tensor table the diff can read";
    }
  }
  return std::nullopt;
}

bool same_shape(const SideTensor& a, const SideTensor& b) {
  if (a.info.shape == b.info.shape) return true;
  if (a.format == b.format) return false;
  const auto scalar = [](const std::vector<std::uint64_t>& s) { return s.empty() || (s.size() == 1 && s[0] == 1); };
  return scalar(a.info.shape) && scalar(b.info.shape);
}

DiffSideSummary summarize_side(const DiffSide& in, const Side& side) {
  DiffSideSummary s;
  s.path = in.path;
  s.valid = true;
  for (const DiffFile& f : in.files) {
    DiffInputFile file;
    file.path = f.path;
    if (f.report) {
      file.format = std::string(format_name(f.report->format));
      file.valid = f.report->valid;
      file.bytes = f.report->bytes_seen;
      file.findings = f.report->findings;
    }
    s.valid = s.valid && file.valid;
    s.files.push_back(std::move(file));
  }
  if (in.directory) {
    s.directory_path = in.path;
    s.directory_findings = in.directory->findings;
  }
  std::map<std::string, DiffDtypeTotal> by_dtype;
  for (const SideTensor& t : side.tensors) {
    DiffDtypeTotal& d = by_dtype[t.info.dtype];
    d.dtype = t.info.dtype;
    ++d.tensors;
    d.parameters += t.info.parameters;
    d.bytes += t.info.bytes;
    ++s.tensors;
    s.parameters += t.info.parameters;
    s.bytes += t.info.bytes;
  }
  for (auto& [name, total] : by_dtype) s.by_dtype.push_back(std::move(total));
  return s;
}

}  // namespace tensorgate::detail::diff
