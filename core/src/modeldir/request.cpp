// The service's POST /v1/check-model: a model directory described by the hub instead of read
// from disk. `config` and `index` are the documents themselves; `files` maps each weights
// file's name to the report /v1/validate gave it (its tensor inventory included): safetensors,
// GGUF, torch checkpoints, ONNX models (also those of the onnx/ folder, "onnx/model.onnx"),
// OpenVINO models (an xml's report with its .bin's: openvino_pairs.cpp);
// `chat_templates` maps each template file's name to its text.
#include <boost/json.hpp>

#include "common/json_doc.hpp"
#include "modeldir/request_kinds.hpp"
#include "tensorgate/model_dir.hpp"

namespace tensorgate {
namespace {

std::optional<std::string> inventory_error(const std::string& name) {
  return "files[" + name + "] is not a /v1/validate report with its tensor inventory (validate with tensors=true)";
}

// A file's inventory from the JSON report /v1/validate gave for it.
std::optional<std::string> read_inventory(const std::string& name, const boost::json::value& report,
                                          FileInventory& out) {
  out.name = name;
  const auto* r = report.if_object();
  const auto* valid = r ? r->if_contains("valid") : nullptr;
  if (!valid || !valid->is_bool()) return inventory_error(name);
  out.valid = valid->as_bool();
  const auto* summary = r->if_contains("summary");
  if (!summary || summary->is_null()) return out.valid ? inventory_error(name) : std::nullopt;
  const auto* s = summary->if_object();
  // A report whose inventory the service cut (max-report-tensors) cannot stand for the file.
  const auto* cut = s ? s->if_contains("truncated") : nullptr;
  if (cut && cut->is_object()) {
    const auto* omitted = cut->as_object().if_contains("tensors_omitted");
    if (omitted && omitted->is_number() && !(omitted->is_int64() && omitted->as_int64() == 0) &&
        !(omitted->is_uint64() && omitted->as_uint64() == 0))
      return "files[" + name + "] lists only part of its tensor inventory (raise max-report-tensors)";
  }
  const auto* meta = s ? s->if_contains("metadata") : nullptr;
  const auto* tensors = s ? s->if_contains("tensors") : nullptr;
  if (!meta || !meta->is_object() || !tensors || !tensors->is_array()) return inventory_error(name);
  for (const auto& [k, v] : meta->as_object()) {
    if (!v.is_string()) return inventory_error(name);
    out.metadata.emplace_back(std::string(k), std::string(v.as_string()));
  }
  for (const auto& t : tensors->as_array()) {
    const auto* o = t.if_object();
    const auto* tn = o ? o->if_contains("name") : nullptr;
    const auto* dt = o ? o->if_contains("dtype") : nullptr;
    const auto* sh = o ? o->if_contains("shape") : nullptr;
    const auto* off = o ? o->if_contains("data_offsets") : nullptr;
    if (!tn || !tn->is_string() || !dt || !dt->is_string() || !sh || !sh->is_array() || !off || !off->is_array() ||
        off->as_array().size() != 2 || !off->as_array()[0].is_number() || !off->as_array()[1].is_number())
      return inventory_error(name);
    InventoryTensor it{std::string(tn->as_string()), std::string(dt->as_string()), {}, 0};
    for (const auto& d : sh->as_array()) {
      if (!d.is_uint64() && !(d.is_int64() && d.as_int64() >= 0)) return inventory_error(name);
      it.shape.push_back(d.to_number<std::uint64_t>());
    }
    boost::json::error_code ec;
    const auto begin = off->as_array()[0].to_number<std::uint64_t>(ec);
    const auto end = off->as_array()[1].to_number<std::uint64_t>(ec);
    if (ec || end < begin) return inventory_error(name);
    it.bytes = end - begin;
    out.tensors.push_back(std::move(it));
  }
  return std::nullopt;
}

std::optional<std::uint64_t> optional_uint(const boost::json::object& o, std::string_view key, bool& bad) {
  const auto* v = o.if_contains(key);
  if (!v || v->is_null()) return std::nullopt;
  if (v->is_uint64()) return v->as_uint64();
  if (v->is_int64() && v->as_int64() >= 0) return static_cast<std::uint64_t>(v->as_int64());
  bad = true;
  return std::nullopt;
}

// A GGUF file's split facts and tensors from the report /v1/validate gave for it.
std::optional<std::string> read_gguf_facts(const std::string& name, const boost::json::value& report, GgufFileFacts& out) {
  out.name = name;
  const auto* r = report.if_object();
  const auto* valid = r ? r->if_contains("valid") : nullptr;
  if (!valid || !valid->is_bool()) return inventory_error(name);
  const auto* summary = r->if_contains("summary");
  if (!summary || summary->is_null()) return valid->as_bool() ? inventory_error(name) : std::nullopt;
  const auto* s = summary->if_object();
  const auto* tensors = s ? s->if_contains("tensors") : nullptr;
  if (!tensors || !tensors->is_array()) return inventory_error(name);
  bool bad = false;
  out.valid = valid->as_bool();
  out.split_no = optional_uint(*s, "split_no", bad);
  out.split_count = optional_uint(*s, "split_count", bad);
  out.split_tensors_count = optional_uint(*s, "split_tensors_count", bad);
  out.block_count = optional_uint(*s, "block_count", bad);
  if (const auto* a = s->if_contains("architecture"); a && a->is_string()) out.architecture = std::string(a->as_string());
  for (const auto& t : tensors->as_array()) {
    const auto* o = t.if_object();
    const auto* tn = o ? o->if_contains("name") : nullptr;
    const auto* ty = o ? o->if_contains("type") : nullptr;
    const auto* sh = o ? o->if_contains("shape") : nullptr;
    if (!tn || !tn->is_string() || !ty || !ty->is_string() || !sh || !sh->is_array()) return inventory_error(name);
    InventoryTensor it{std::string(tn->as_string()), std::string(ty->as_string()), {}, optional_uint(*o, "bytes", bad).value_or(0)};
    for (const auto& d : sh->as_array()) {
      if (!d.is_uint64() && !(d.is_int64() && d.as_int64() >= 0)) return inventory_error(name);
      it.shape.push_back(d.to_number<std::uint64_t>());
    }
    out.tensors.push_back(std::move(it));
  }
  if (bad) return inventory_error(name);
  return std::nullopt;
}

// "chat_templates": {"<file name>": "<text>"}: each judged as the CLI judges the file.
std::optional<std::string> read_templates(const boost::json::value& templates, const Limits& limits, ModelDirectory& dir) {
  if (!templates.is_object()) return "\"chat_templates\" must be an object of file name to the file's text";
  for (const auto& [name, text] : templates.as_object()) {
    const auto kind = chat_template_file_kind(name);
    if (!kind || !text.is_string())
      return "chat_templates[" + std::string(name) + "] must be the text of a chat template file (" +
             std::string(kChatTemplateFiles) + ")";
    dir.file_names.emplace_back(name);
    dir.chat_templates.push_back(check_chat_template_file(std::string(name), *kind, text.as_string(), limits));
  }
  return std::nullopt;
}

// "config", "index", "bin_index": each document as an object, or as the file's own text (a
// string), checked exactly as `tensorgate check DIR` checks the file (a duplicate key in it is
// MD.config-invalid, not a malformed request); "other_files": names only.
void read_documents(const boost::json::object& req, ModelDirectory& dir) {
  const auto document = [&](const char* key) -> std::optional<std::string> {
    const auto* v = req.if_contains(key);
    if (!v || v->is_null()) return std::nullopt;
    return v->is_string() ? std::string(v->as_string()) : boost::json::serialize(*v);
  };
  dir.config_json = document("config");
  dir.index_json = document("index");
  dir.bin_index_json = document("bin_index");
  if (dir.config_json) dir.file_names.push_back("config.json");
  if (dir.index_json) dir.file_names.push_back("model.safetensors.index.json");
  if (dir.bin_index_json) dir.file_names.push_back("pytorch_model.bin.index.json");
  const auto* others = req.if_contains("other_files");
  if (!others || !others->is_array()) return;
  for (const auto& n : others->as_array()) {
    if (!n.is_string()) continue;
    dir.file_names.emplace_back(n.as_string());
    dir.other_files.push_back(OtherFile{std::string(n.as_string()), Format::unknown, "not sent to the service"});
    dir.has_tokenizer_json = dir.has_tokenizer_json || n.as_string() == "tokenizer.json";
  }
}

// "onnx/model.onnx": a model of the onnx/ folder (transformers.js's layout), by its report's
// format, as the CLI's directory check finds it by content.
bool onnx_folder_model(std::string_view name, const boost::json::value* format) {
  constexpr std::string_view folder = "onnx/";
  return format && *format == "onnx" && name.starts_with(folder) && name.size() > folder.size() &&
         name.find('/', folder.size()) == std::string_view::npos;
}

// One entry of "files": a GGUF's split facts, a safetensors file's inventory, or what the
// report of any other content says (a torch checkpoint, an ONNX model, or a file of no model
// format).
std::optional<std::string> read_file_report(std::string_view name, const boost::json::value& report, ModelDirectory& dir) {
  const auto* format = report.is_object() ? report.as_object().if_contains("format") : nullptr;
  if (onnx_folder_model(name, format)) {
    // One of the onnx/ folder's models, as the CLI lists them (no file of the directory itself).
    // Its inventory joins the weights as well: the answer has no entry of the file's own, so an
    // invalid one is the directory's MD.invalid-file (the folder's models never make the model).
    dir.onnx_folder_models.emplace_back(name);
    std::string error;
    if (auto inv = detail::checkpoint_from_report(std::string(name), report, error)) dir.weights.push_back(std::move(*inv));
    if (!error.empty()) return error;
    return std::nullopt;
  }
  dir.file_names.emplace_back(name);
  const bool safetensors = format ? *format == "safetensors" : name.ends_with(".safetensors");
  const bool gguf = format ? *format == "gguf" : name.ends_with(".gguf");
  if (gguf) {  // its split facts and tensors for GS
    GgufFileFacts facts;
    if (auto err = read_gguf_facts(std::string(name), report, facts)) return err;
    dir.gguf.push_back(std::move(facts));
  } else if (parse_split_name(name)) {  // named as a shard, of other content: an invalid shard
    dir.gguf.push_back(GgufFileFacts{std::string(name), false, {}, {}, {}, {}, {}, {}});
  }
  if (!safetensors) {
    std::string error;
    if (auto inv = detail::checkpoint_from_report(std::string(name), report, error)) dir.weights.push_back(std::move(*inv));
    if (!error.empty()) return error;
    return std::nullopt;
  }
  FileInventory inv;
  if (auto err = read_inventory(std::string(name), report, inv)) return err;
  dir.weights.push_back(std::move(inv));
  return std::nullopt;
}

}  // namespace

CheckModelResult check_model_request(std::string_view request_json, const Limits& limits, MemoryBudget* budget) {
  CheckModelResult result;
  detail::JsonDoc doc = detail::parse_json_object(request_json, limits.directory, budget);
  result.budget_refused = doc.budget_refused;
  if (!doc.object) {
    result.error = "the request is not a JSON object: " + doc.error;
    return result;
  }
  const boost::json::object& req = *doc.object;
  const auto* files = req.if_contains("files");
  if (!files || !files->is_object()) {
    result.error = "the request needs \"files\", an object of file name to /v1/validate report";
    return result;
  }
  ModelDirectory dir;
  read_documents(req, dir);
  if (const auto* templates = req.if_contains("chat_templates")) {
    if (auto err = read_templates(*templates, limits, dir)) {
      result.error = std::move(*err);
      return result;
    }
  }
  std::set<std::string, std::less<>> taken;  // OpenVINO models' xml and .bin
  if (auto err = detail::read_openvino_pairs(files->as_object(), limits, dir, taken)) {
    result.error = std::move(*err);
    return result;
  }
  for (const auto& [name, report] : files->as_object()) {
    if (taken.count(std::string_view(name))) continue;
    if (auto err = read_file_report(name, report, dir)) {
      result.error = std::move(*err);
      return result;
    }
  }
  result.report = check_model_directory(dir, limits);
  return result;
}

}  // namespace tensorgate
