// /v1/check-model's torch checkpoints, GGUF files and ONNX models: the inventory a report of
// format pickle (its summary's tensors), zip (its PyTorch archive's data.pkl) or onnx (its
// initializers) shows, read back from JSON.
#include <boost/json.hpp>

#include "modeldir/dir_context.hpp"
#include "modeldir/request_kinds.hpp"

namespace tensorgate::detail {
namespace {

std::string report_error(const std::string& name) {
  return "files[" + name + "] is not a /v1/validate report with its tensor inventory (validate with tensors=true)";
}

const boost::json::array* pickle_tensors(const boost::json::object& summary, const boost::json::object& report) {
  const auto* format = report.if_contains("format");
  if (format && *format == "pickle") {
    const auto* t = summary.if_contains("tensors");
    return t ? t->if_array() : nullptr;
  }
  // zip: the pickle of <archive>/data.pkl
  const auto* pytorch = summary.if_contains("pytorch");
  const auto* pickles = summary.if_contains("pickles");
  if (!pytorch || !pytorch->is_object() || !pickles || !pickles->is_array()) return nullptr;
  const auto* archive = pytorch->as_object().if_contains("archive");
  if (!archive || !archive->is_string()) return nullptr;
  const std::string want = std::string(archive->as_string()) + "/data.pkl";
  for (const auto& p : pickles->as_array()) {
    const auto* o = p.if_object();
    const auto* entry = o ? o->if_contains("entry") : nullptr;
    const auto* s = o ? o->if_contains("summary") : nullptr;
    if (!entry || !entry->is_string() || entry->as_string() != want || !s || !s->is_object()) continue;
    const auto* t = s->as_object().if_contains("tensors");
    return t ? t->if_array() : nullptr;
  }
  return nullptr;
}

// The tensors a report lists: a torch checkpoint's state dict, an ONNX model's initializers.
const boost::json::array* listed_tensors(Format format, const boost::json::object& summary, const boost::json::object& report) {
  if (format != Format::onnx) return pickle_tensors(summary, report);
  const auto* t = summary.if_contains("initializers");
  return t ? t->if_array() : nullptr;
}

// Whether an ONNX report counted initializers it does not list: its inventory cannot stand for
// the model.
bool initializers_cut(const boost::json::object& summary) {
  const auto* n = summary.if_contains("initializers_not_listed");
  return n && n->is_number() && !(n->is_uint64() && n->as_uint64() == 0) && !(n->is_int64() && n->as_int64() == 0);
}

std::optional<Format> format_named(std::string_view text) {
#define TENSORGATE_FORMAT(id, name) \
  if (text == name) return Format::id;
#define TENSORGATE_KIND(id, name) TENSORGATE_FORMAT(id, name)
#include "tensorgate/formats.def"
#undef TENSORGATE_FORMAT
#undef TENSORGATE_KIND
  return std::nullopt;
}

}  // namespace

std::optional<FileInventory> checkpoint_from_report(const std::string& name, const boost::json::value& report,
                                                    std::string& error) {
  const auto* r = report.if_object();
  const auto* format = r ? r->if_contains("format") : nullptr;
  const auto* valid = r ? r->if_contains("valid") : nullptr;
  if (!format || !format->is_string() || !valid || !valid->is_bool()) {
    error = report_error(name);
    return std::nullopt;
  }
  FileInventory inv;
  inv.name = name;
  inv.valid = valid->as_bool();
  const auto known = format_named(format->as_string());
  if (!known) {
    error = report_error(name);
    return std::nullopt;
  }
  // A file the hub sent as a model file is one, whatever its content (an LFS pointer or an HTML
  // page under a weight's name is an invalid one, as the CLI's walk has it).
  inv.format = *known;
  const auto* summary = r->if_contains("summary");
  const bool onnx = inv.format == Format::onnx;
  if (!(is_torch_format(inv.format) || onnx) || !summary || !summary->is_object()) return inv;
  if (onnx && initializers_cut(summary->as_object())) {
    error = "files[" + name + "] lists only part of its initializers";
    return std::nullopt;
  }
  const boost::json::array* tensors = listed_tensors(inv.format, summary->as_object(), *r);
  if (!tensors) {
    if (inv.format == Format::pickle || onnx) error = report_error(name);
    return inv;
  }
  for (const auto& t : *tensors) {
    const auto* o = t.if_object();
    const auto* tn = o ? o->if_contains("name") : nullptr;
    const auto* dt = o ? o->if_contains("dtype") : nullptr;
    const auto* sh = o ? o->if_contains("shape") : nullptr;
    const auto* by = o ? o->if_contains("bytes") : nullptr;
    if (!tn || !tn->is_string() || !dt || !dt->is_string() || !sh || !sh->is_array() || !by || !by->is_number()) {
      error = report_error(name);
      return std::nullopt;
    }
    InventoryTensor it{std::string(tn->as_string()), std::string(dt->as_string()), {}, 0};
    boost::json::error_code ec;
    it.bytes = by->to_number<std::uint64_t>(ec);
    for (const auto& d : sh->as_array()) {
      if (!d.is_uint64() && !(d.is_int64() && d.as_int64() >= 0)) {
        error = report_error(name);
        return std::nullopt;
      }
      it.shape.push_back(d.to_number<std::uint64_t>());
    }
    if (ec) {
      error = report_error(name);
      return std::nullopt;
    }
    inv.tensors.push_back(std::move(it));
  }
  return inv;
}

}  // namespace tensorgate::detail
