// Writes model pairs for the end-to-end test of `tensorgate diff` (tests/cli/test_diff.py):
// <out>/<case>/old and <out>/<case>/new (each a model directory or a file), and
// <out>/MANIFEST.tsv with one line per case: name, OLD and NEW (relative to <out>), --values
// (0 or 1), --fail-on, the exit status, and the changes the JSON report must list
// ("name:kind+kind", a rename "old>new:renamed", space-separated, in the report's order).
//
// With --seeds, writes instead one diff_fuzzer seed per pair of single files (fuzz/diff_fuzzer.cpp:
// u8 values flag, u16 config A length, config A, u16 config B length, config B, u32 file A
// length, file A, file B).
//
// usage: write_diff_pairs [--seeds] OUT_DIR
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <string>

#include "conversion_builder.hpp"
#include "pickle_builder.hpp"
#include "zip_builder.hpp"

namespace {

namespace fs = std::filesystem;
using namespace tgtest;
using Files = std::map<std::string, std::string>;

void write(const fs::path& path, const std::string& bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

void write_dir(const fs::path& dir, const Files& files) {
  for (const auto& [name, bytes] : files) write(dir / name, bytes);
}

SourceTensorData& find(std::vector<SourceTensorData>& ts, const std::string& name) {
  for (auto& t : ts)
    if (t.name == name) return t;
  throw std::runtime_error("no tensor " + name);
}

struct Case {
  std::string name, old_path, new_path, values, fail_on, status, changes;
};

std::string le(std::uint64_t v, unsigned bytes) {
  std::string out;
  for (unsigned i = 0; i < bytes; ++i) out += static_cast<char>((v >> (8 * i)) & 0xff);
  return out;
}

// A seed of diff_fuzzer: the two configs and the two files, with and without --values.
void write_seeds(const fs::path& dir, const std::string& name, const Files& a, const Files& b, const std::string& file_a,
                 const std::string& file_b) {
  const auto config = [](const Files& f) { return f.count("config.json") ? f.at("config.json") : std::string(); };
  for (const char values : {'\0', '\1'}) {
    const std::string seed = std::string(1, values) + le(config(a).size(), 2) + config(a) + le(config(b).size(), 2) + config(b) +
                             le(a.at(file_a).size(), 4) + a.at(file_a) + b.at(file_b);
    write(dir / (name + (values ? "-values" : "-headers")), seed);
  }
}

// The five norms as llama.cpp names them, widened to F32: the converted pair's only changes.
std::string converted_changes() {
  std::vector<std::string> rows;
  for (const std::string src : {"model.layers.0.input_layernorm.weight", "model.layers.0.post_attention_layernorm.weight",
                                 "model.layers.1.input_layernorm.weight", "model.layers.1.post_attention_layernorm.weight",
                                 "model.norm.weight"})
    rows.push_back(llama_gguf_name(src) + "\t" + src + ">" + llama_gguf_name(src) + ":dtype");
  rows.push_back("rope_freqs.weight\trope_freqs.weight:added");
  std::sort(rows.begin(), rows.end());
  std::string out;
  for (const auto& r : rows) out += (out.empty() ? "" : " ") + r.substr(r.find('\t') + 1);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const bool seeds = argc == 3 && std::string(argv[1]) == "--seeds";
  if (argc != 2 && !seeds) {
    std::fputs("usage: write_diff_pairs [--seeds] OUT_DIR\n", stderr);
    return 2;
  }
  const fs::path out = argv[argc - 1];
  const TinyLlama m;
  const auto base = make_checkpoint(m);
  const Files old_files = source_files(m, base);
  std::vector<Case> cases;
  std::set<std::string> seeded;
  const auto pair = [&](const std::string& name, const Files& new_files, const std::string& values, const std::string& fail_on,
                        const std::string& status, const std::string& changes) {
    if (seeds) {  // one seed pair per distinct NEW
      if (new_files.count("model.safetensors") && seeded.insert(new_files.at("model.safetensors")).second)
        write_seeds(out, name, old_files, new_files, "model.safetensors", "model.safetensors");
      return;
    }
    write_dir(out / name / "old", old_files);
    write_dir(out / name / "new", new_files);
    cases.push_back({name, name + "/old", name + "/new", values, fail_on, status, changes});
  };

  pair("identical", old_files, "1", "all", "0", "");
  pair("resharded", source_files(m, base, 3), "1", "all", "0", "");
  auto tuned = base;
  find(tuned, "model.layers.0.self_attn.q_proj.weight").data[10] ^= 1;
  find(tuned, "model.layers.1.mlp.down_proj.weight").data[41] ^= 0x40;
  const std::string tuned_changes = "model.layers.0.self_attn.q_proj.weight:values model.layers.1.mlp.down_proj.weight:values";
  pair("fine-tuned", source_files(m, tuned), "1", "values", "1", tuned_changes);
  pair("fine-tuned-headers", source_files(m, tuned), "0", "values", "0", "");
  pair("fine-tuned-gate", source_files(m, tuned), "1", "shape,dtype,removed,added", "0", tuned_changes);

  TinyLlama bigger = m;
  bigger.vocab = 16;
  auto resized = base;
  auto& embed = find(resized, "model.embed_tokens.weight");
  embed.shape = {16, 16};
  embed.data += std::string(4 * 16 * 2, '\x11');
  pair("resized", source_files(bigger, resized), "1", "shape", "1", "model.embed_tokens.weight:shape");
  pair("resized-values-gate", source_files(bigger, resized), "1", "values", "0", "model.embed_tokens.weight:shape");

  auto renamed = base;
  for (auto& t : renamed)
    if (t.name == "model.layers.1.mlp.up_proj.weight") t.name = "model.layers.1.mlp.fc_in.weight";
  pair("renamed", source_files(m, renamed), "0", "added,removed", "0",
       "model.layers.1.mlp.up_proj.weight>model.layers.1.mlp.fc_in.weight:renamed");
  pair("renamed-gate", source_files(m, renamed), "0", "renamed", "1",
       "model.layers.1.mlp.up_proj.weight>model.layers.1.mlp.fc_in.weight:renamed");

  auto removed = base;
  removed.erase(removed.begin() + 3);  // model.layers.0.self_attn.v_proj.weight
  pair("removed", source_files(m, removed), "0", "removed", "1", "model.layers.0.self_attn.v_proj.weight:removed");

  Files broken = old_files;
  broken["model.safetensors"].resize(broken["model.safetensors"].size() - 5);
  pair("invalid-new", broken, "1", "", "1", "");

  // A converted pair: the model directory and its GGUF, through the audit's name map.
  if (seeds) {
    const Files gguf{{"model.gguf", convert(m, base).build()}};
    write_seeds(out, "converted", old_files, gguf, "model.safetensors", "model.gguf");
    write_seeds(out, "converted-back", gguf, old_files, "model.gguf", "model.safetensors");
    // PyTorch checkpoints: an archive against a changed one, the legacy stream, safetensors.
    const std::vector<TorchTensor> t_old{{"w", "FloatStorage", {2, 3}}, {"b", "FloatStorage", {3}}, {"v", "HalfStorage", {4}}};
    const std::vector<TorchTensor> t_new{{"w", "FloatStorage", {3, 2}}, {"b", "HalfStorage", {3}}, {"u", "HalfStorage", {4}}};
    const Files torch_old{{"pytorch_model.bin", torch_archive(t_old)}}, torch_new{{"pytorch_model.bin", torch_archive(t_new)}};
    const Files legacy{{"pytorch_model.bin", legacy_torch_stream(t_old)}};
    write_seeds(out, "torch-archives", torch_old, torch_new, "pytorch_model.bin", "pytorch_model.bin");
    write_seeds(out, "torch-legacy", legacy, torch_old, "pytorch_model.bin", "pytorch_model.bin");
    write_seeds(out, "torch-to-safetensors", torch_old, old_files, "pytorch_model.bin", "model.safetensors");
    return 0;
  }
  write_dir(out / "converted" / "old", old_files);
  write(out / "converted" / "model.gguf", convert(m, base).build());
  cases.push_back({"converted", "converted/old", "converted/model.gguf", "1", "shape,values,removed", "0", converted_changes()});
  cases.push_back({"converted-dtype-gate", "converted/old", "converted/model.gguf", "0", "dtype", "1", converted_changes()});

  std::ofstream manifest(out / "MANIFEST.tsv");
  for (const Case& c : cases)
    manifest << c.name << '\t' << c.old_path << '\t' << c.new_path << '\t' << c.values << '\t' << c.fail_on << '\t'
             << c.status << '\t' << c.changes << '\n';
  return 0;
}
