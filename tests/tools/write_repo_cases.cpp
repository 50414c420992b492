// Writes the repository cases the end-to-end tests run `tensorgate check` over:
//   write_repo_cases TEMPLATES_DIR OUT
// OUT/split/<case>/: split GGUF sets as gguf-split writes them, whole and each break of the GS
// rules; OUT/split/manifest.txt: "<case> <valid|invalid> <error ids, comma-separated, or ->".
// OUT/gguf_templates/<dir>_<name>.gguf: a small GGUF whose tokenizer.chat_template is each
// template of TEMPLATES_DIR (tests/data/chat_templates/benign, real and hostile).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "gguf_builder.hpp"
#include "split_builder.hpp"
#include "tensorgate/gguf.hpp"

namespace fs = std::filesystem;

namespace {

void write(const fs::path& p, const std::string& bytes) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

struct SplitCase {
  const char* name;
  const char* errors;  // "-" for a valid set
  std::function<void(std::vector<tgtest::ShardSpec>&)> edit;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: write_repo_cases TEMPLATES_DIR OUT\n");
    return 2;
  }
  const fs::path templates = argv[1], out = argv[2];
  const std::vector<SplitCase> cases = {
      {"whole", "-", [](auto&) {}},
      {"missing_shard", "GS.missing-shard", [](auto& s) { s.erase(s.begin() + 1); }},
      {"one_based_split_no", "GS.split-no", [](auto& s) { for (std::size_t i = 0; i < s.size(); ++i) s[i].split_no = i + 1; }},
      {"repeated_split_no", "GS.split-no", [](auto& s) { s[2].split_no = 0; }},
      {"count_disagrees", "GS.count", [](auto& s) { s[1].split_count = 5; }},
      {"renamed_shard", "GS.name,GS.missing-shard", [](auto& s) { s[2].name = "model-last.gguf"; }},
      {"foreign_shard", "GS.extra-shard", [](auto& s) { s.push_back(tgtest::split_set("model", 4)[3]); }},
      {"tensors_count", "GS.tensors-count", [](auto& s) { s[0].tensors.push_back("extra.weight"); }},
      {"duplicate_tensor", "GS.duplicate-tensor",
       [](auto& s) {
         s[2].tensors.push_back(s[1].tensors[0]);
         for (auto& x : s) x.split_tensors_count = *x.split_tensors_count + 1;
       }},
      {"no_architecture", "GS.architecture", [](auto& s) { s[0].architecture = false, s[0].block_count.reset(); }},
      {"invalid_shard", "GS.invalid-shard", [](auto& s) { s[1].corrupt = true; }},
  };
  std::ostringstream manifest;
  for (const auto& c : cases) {
    auto set = tgtest::split_set("model", 3, 3);
    c.edit(set);
    for (const auto& s : tgtest::build_shards(set)) write(out / "split" / c.name / s.name, s.bytes);
    manifest << c.name << ' ' << (std::string(c.errors) == "-" ? "valid" : "invalid") << ' ' << c.errors << '\n';
  }
  write(out / "split" / "manifest.txt", manifest.str());
  for (const char* dir : {"benign", "real", "hostile"}) {
    for (const auto& e : fs::directory_iterator(templates / dir)) {
      std::ifstream in(e.path(), std::ios::binary);
      std::ostringstream text;
      text << in.rdbuf();
      tgtest::GgufBuilder b;
      b.kv_str("general.architecture", "llama").kv_str("tokenizer.chat_template", text.str()).tensor("w", 0, {8});
      write(out / "gguf_templates" / (std::string(dir) + "_" + e.path().stem().string() + ".gguf"), b.build());
    }
  }
  return 0;
}
