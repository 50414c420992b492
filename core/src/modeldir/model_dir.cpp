// The model directory check: MD first (config, weights present, files valid), then SH for a
// sharded directory, GS for split GGUF sets, CT for chat template files, KR for a Keras
// directory's config, TL where the config declares a tl_arch, AR against the config, and the summary across the model's files.
#include <algorithm>
#include <map>

#include "modeldir/dir_context.hpp"
#include "common/json_doc.hpp"

namespace tensorgate {
namespace detail {

const FileInventory* DirContext::weights_file(std::string_view name) const {
  for (const auto& f : dir_.weights)
    if (f.name == name) return &f;
  return nullptr;
}

bool DirContext::has_file(std::string_view name) const {
  return std::find(dir_.file_names.begin(), dir_.file_names.end(), name) != dir_.file_names.end();
}

namespace {

void check_config(DirContext& ctx) {
  if (!ctx.dir().config_json) {
    if (needs_config(ctx.dir())) ctx.add(Rule::md_config_missing, "the directory has no config.json");
    return;
  }
  JsonDoc doc = parse_json_object(*ctx.dir().config_json, ctx.limits());
  if (!doc.object) {
    ctx.add(Rule::md_config_invalid, "config.json: " + doc.error);
    return;
  }
  ctx.config = std::move(doc.object);
}

void summarize(DirContext& ctx) {
  DirectorySummary& s = ctx.summary;
  std::map<std::string, std::uint64_t> by_dtype;
  for (const FileInventory* f : ctx.model_files) {
    s.files.push_back(f->name);
    for (const auto& t : f->tensors) {
      std::uint64_t elements = 1;
      for (const auto d : t.shape) elements *= d;
      by_dtype[t.dtype] += elements;
      s.parameters += elements;
      s.bytes += t.bytes;
    }
  }
  s.parameters_by_dtype.assign(by_dtype.begin(), by_dtype.end());
  if (!ctx.model_files.empty()) s.weights_format = std::string(format_name(ctx.model_files.front()->format));
  s.other_files = ctx.dir().other_files;
  if (!s.sharded) s.weight_map_size = ctx.model_files.empty() ? 0 : ctx.model_files.front()->tensors.size();
  if (!s.sharded) s.shard_count = ctx.model_files.size();
  // No safetensors or torch model: one split GGUF set is the model.
  const bool gguf_model = ctx.model_files.empty() || ctx.model_files.front()->format == Format::gguf;
  if (gguf_model && s.split_sets.size() == 1) {
    const SplitSetSummary& set = s.split_sets.front();
    if (!s.architecture) s.architecture = set.architecture;
    if (!s.layers) s.layers = set.layers;
    s.parameters_by_dtype = set.parameters_by_type;
    s.parameters = set.parameters;
    s.bytes = set.bytes;
    s.sharded = true;
    s.shard_count = set.shard_count;
    s.weight_map_size = set.tensors;
    s.files = set.files;
    s.weights_format = std::string(format_name(Format::gguf));
  }
}

DirectoryReport report_of(DirContext& ctx) {
  DirectoryReport report;
  report.valid = !ctx.findings().has_errors();
  report.findings_dropped = ctx.findings().dropped();
  report.findings = ctx.findings().take();
  report.summary = std::move(ctx.summary);
  return report;
}

}  // namespace
}  // namespace detail

DirectoryReport check_model_directory(const ModelDirectory& dir, const Limits& limits) {
  detail::DirContext ctx(dir, limits);
  for (const Finding& f : dir.pair_findings) ctx.add(f);
  detail::check_config(ctx);
  detail::check_weights(ctx);
  detail::check_split_sets(ctx);
  detail::check_chat_templates(ctx);
  detail::check_savedmodel_directory(ctx);
  detail::check_keras_directory(ctx);
  // A Keras config, and a CTranslate2 converter's, name no architecture of the hub's.
  if (ctx.config && !detail::is_keras_directory(ctx) && !detail::is_ctranslate2_directory(ctx)) {
    detail::check_tinyllm_directory(ctx);
    detail::check_architecture(ctx);
  }
  detail::summarize(ctx);
  return detail::report_of(ctx);
}

DirectoryReport check_split_set_files(const std::vector<GgufFileFacts>& files, const Limits& limits) {
  ModelDirectory dir;
  dir.gguf = files;
  for (const GgufFileFacts& f : files) {
    dir.file_names.push_back(f.name);
    dir.weights.push_back(FileInventory{f.name, f.valid, Format::gguf, {}, {}});
  }
  detail::DirContext ctx(dir, limits);
  for (const FileInventory& f : dir.weights) ctx.model_files.push_back(&f);  // as a GGUF-only directory's
  detail::check_split_sets(ctx);
  detail::summarize(ctx);
  return detail::report_of(ctx);
}

bool is_model_directory(const std::vector<std::string>& names) {
  for (const char* marker : {"config.json", "model.safetensors", "model.safetensors.index.json", "pytorch_model.bin",
                             "pytorch_model.bin.index.json", "saved_model.pb"})
    if (std::find(names.begin(), names.end(), marker) != names.end()) return true;
  return std::any_of(names.begin(), names.end(), [](const std::string& n) { return parse_split_name(n).has_value(); });
}

}  // namespace tensorgate
