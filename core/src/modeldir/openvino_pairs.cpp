// /v1/check-model's OpenVINO models: each report of format openvino (a model.xml) with the report
// of the .bin of its stem, as `tensorgate check DIR` pairs the two files: the xml's Const layers
// (its summary's const_layers, all of them listed) against the .bin's size (its report's bytes),
// by the openvino room's check_openvino_weights. The findings join the directory's; an xml whose
// pair has an error is invalid there (MD.invalid-file), as its CLI report would be. The .bin is
// the xml's, neither weights nor a file that holds none.
#include <boost/json.hpp>

#include "modeldir/dir_context.hpp"
#include "modeldir/request_kinds.hpp"
#include "tensorgate/openvino.hpp"

namespace tensorgate::detail {
namespace {

std::string shape_error(std::string_view name) {
  return "files[" + std::string(name) + "] is not a /v1/validate report of an OpenVINO model.xml with its Const layers (validate with tensors=true)";
}

std::optional<std::uint64_t> uint_of(const boost::json::value* v) {
  if (!v) return std::nullopt;
  if (v->is_uint64()) return v->as_uint64();
  if (v->is_int64() && v->as_int64() >= 0) return static_cast<std::uint64_t>(v->as_int64());
  return std::nullopt;
}

// The summary's Const layers as the pair check and the inventory need them.
std::optional<std::string> read_consts(std::string_view name, const boost::json::object& s, OpenVinoSummary& out,
                                       FileInventory& inv) {
  const auto* layers = s.if_contains("const_layers");
  const auto not_listed = uint_of(s.if_contains("const_layers_not_listed"));
  if (!layers || !layers->is_array() || !not_listed) return shape_error(name);
  if (*not_listed != 0) return "files[" + std::string(name) + "] lists only part of its Const layers";
  for (const auto& c : layers->as_array()) {
    const auto* o = c.if_object();
    const auto offset = o ? uint_of(o->if_contains("offset")) : std::nullopt;
    const auto size = o ? uint_of(o->if_contains("size")) : std::nullopt;
    const auto* cn = o ? o->if_contains("name") : nullptr;
    const auto* et = o ? o->if_contains("element_type") : nullptr;
    const auto* sh = o ? o->if_contains("shape") : nullptr;
    if (!offset || !size || *offset > UINT64_MAX - *size || !cn || !cn->is_string() || !et || !et->is_string() || !sh ||
        !sh->is_array())
      return shape_error(name);
    InventoryTensor t{std::string(cn->as_string()), std::string(et->as_string()), {}, *size};
    for (const auto& d : sh->as_array()) {
      const auto dim = uint_of(&d);
      if (!dim) return shape_error(name);
      t.shape.push_back(*dim);
    }
    out.ranges.push_back(OpenVinoRange{*offset, *size, 0});
    inv.tensors.push_back(std::move(t));
  }
  out.consts = out.ranges.size();
  return std::nullopt;
}

}  // namespace

std::optional<std::string> read_openvino_pairs(const boost::json::object& files, const Limits& limits, ModelDirectory& dir,
                                               std::set<std::string, std::less<>>& taken) {
  std::vector<ListedFile> listed;
  for (const auto& [name, report] : files) {
    const auto* format = report.is_object() ? report.as_object().if_contains("format") : nullptr;
    listed.push_back(ListedFile{std::string(name), format && *format == "openvino" ? Format::openvino : Format::unknown});
  }
  for (const ListedFile& f : listed) {
    if (f.format != Format::openvino) continue;
    const auto& r = files.at(f.name).as_object();
    const auto* valid = r.if_contains("valid");
    const auto* summary = r.if_contains("summary");
    if (!valid || !valid->is_bool()) return shape_error(f.name);
    FileInventory inv{f.name, valid->as_bool(), Format::openvino, {}, {}};
    taken.insert(f.name);
    dir.file_names.push_back(f.name);
    if (summary && summary->is_object()) {
      Report xml;
      xml.format = Format::openvino;
      xml.valid = inv.valid;
      OpenVinoSummary s;
      if (auto err = read_consts(f.name, summary->as_object(), s, inv)) return err;
      xml.summary = std::move(s);
      OpenVinoWeightsFacts facts{OpenVinoWeightsFacts::Kind::missing, 0, openvino_weights_name(f.name)};
      if (const auto it = files.find(facts.name); it != files.end()) {
        const auto* bytes = it->value().is_object() ? it->value().as_object().if_contains("bytes") : nullptr;
        const auto size = uint_of(bytes);
        if (!size) return "files[" + facts.name + "] is not a /v1/validate report (it has no bytes)";
        facts = {OpenVinoWeightsFacts::Kind::regular, *size, facts.name};
      }
      check_openvino_weights(xml, facts, limits);
      inv.valid = xml.valid;
      for (Finding& finding : xml.findings) {
        finding.message = f.name + ": " + finding.message;
        dir.pair_findings.push_back(std::move(finding));
      }
    }
    dir.weights.push_back(std::move(inv));
  }
  for (const ListedFile& f : listed)
    if (is_openvino_weights(f.name, listed)) {
      taken.insert(f.name);
      dir.file_names.push_back(f.name);
    }
  return std::nullopt;
}

}  // namespace tensorgate::detail
