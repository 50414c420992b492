#include "diff_run.hpp"

#include <deque>
#include <memory>

#include "memory_source.hpp"
#include "tensorgate/detect.hpp"
#include "tensorgate/model_dir.hpp"
#include "tensorgate/validator.hpp"

namespace tgtest {
namespace {

using namespace tensorgate;

// One side's validated files and what points into them.
struct Held {
  std::map<std::string, Report> reports;
  std::deque<MemorySource> sources;
  std::optional<DirectoryReport> directory;
  DiffSide side;
};

Report validate(const std::string& name, const std::string& bytes) {
  auto v = make_validator(FormatChoice::auto_detect, name);
  v->set_total_size(bytes.size());
  v->feed(std::string_view(bytes));
  return v->finish();
}

void hold(const std::string& side_name, const Model& m, bool values, const DiffWrap& wrap, Held& h) {
  h.side.path = side_name;
  ModelDirectory md;
  for (const auto& [name, data] : m.files) {
    md.file_names.push_back(name);
    if (name == "config.json") md.config_json = data, h.side.config_json = data;
    if (name == "model.safetensors.index.json") md.index_json = data;
    const bool torch = name.ends_with(".bin") || name.ends_with(".pt") || name.ends_with(".pth");
    if (!name.ends_with(".safetensors") && !name.ends_with(".gguf") && !name.ends_with(".onnx") && !name.ends_with(".tflite") &&
        !torch)
      continue;
    const Report& r = h.reports.emplace(name, validate(name, data)).first->second;
    if (r.format == Format::safetensors) md.weights.push_back(inventory_of(name, r));
  }
  std::vector<std::string> model_files;
  if (m.directory) {
    h.directory = check_model_directory(md);
    h.side.directory = &*h.directory;
    model_files = h.directory->summary.files;
  }
  if (model_files.empty())
    for (const auto& [name, r] : h.reports) model_files.push_back(name);
  for (const std::string& name : model_files) {
    DiffFile f{m.directory ? side_name + "/" + name : name, &h.reports.at(name), nullptr};
    if (values) {
      ByteSource& inner = h.sources.emplace_back(m.files.at(name));
      f.bytes = wrap ? wrap(side_name, name, inner) : &inner;
    }
    h.side.files.push_back(f);
  }
}

}  // namespace

std::string DiffRun::changes() const {
  std::string out;
  for (const TensorChange& c : report.changes) {
    std::string name = c.new_tensor ? c.new_tensor->name : c.old_tensor->name;
    if (c.old_tensor && c.new_tensor && c.old_tensor->name != c.new_tensor->name)
      name = c.old_tensor->name + ">" + c.new_tensor->name;
    std::string kinds;
    for (const ChangeKindInfo& k : change_kinds())
      if (c.kinds.has(k.kind)) kinds += (kinds.empty() ? "" : "+") + std::string(k.id);
    out += (out.empty() ? "" : " ") + name + ":" + kinds;
  }
  return out;
}

std::string DiffRun::keys() const {
  std::string out;
  for (const KeyChange& k : report.keys) out += (out.empty() ? "" : " ") + std::string(change_kind_id(k.kind)) + ":" + k.key;
  return out;
}

const TensorChange* DiffRun::change(const std::string& name) const {
  for (const TensorChange& c : report.changes)
    if ((c.new_tensor && c.new_tensor->name == name) || (c.old_tensor && c.old_tensor->name == name)) return &c;
  return nullptr;
}

DiffRun diff_pair(const Model& old_model, const Model& new_model, const DiffOptions& options, const Limits& limits,
                  const DiffWrap& wrap) {
  Held a, b;
  hold("old", old_model, options.values, wrap, a);
  hold("new", new_model, options.values, wrap, b);
  return DiffRun{diff_models(a.side, b.side, options, limits)};
}

DiffOptions with_values(bool values, ChangeSet fail_on) {
  DiffOptions o;
  o.values = values;
  o.fail_on = fail_on;
  return o;
}

}  // namespace tgtest
