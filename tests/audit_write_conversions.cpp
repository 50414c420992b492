// Writes conversion cases for the end-to-end test (tests/cli/test_audit.py) and the fuzz seeds:
// <out>/<case>/src/ (a model directory) and <out>/<case>/model.gguf, and <out>/MANIFEST.tsv with
// one line per case: name, the exit status `tensorgate audit` must give, its error ids.
//
// With --seeds, writes instead one audit_fuzzer seed per single-file case (fuzz/audit_fuzzer.cpp:
// u8 batch size, u16 config length, config, u32 safetensors length, safetensors, GGUF).
//
// usage: audit_write_conversions [--seeds] OUT_DIR
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>

#include "conversion_builder.hpp"
#include "tensorgate/gguf.hpp"

namespace {

namespace fs = std::filesystem;
using tgtest::ConvertOptions;
using tgtest::GgufParts;

struct Case {
  const char* name;
  int shards;
  std::function<void(tgtest::TinyLlama&, ConvertOptions&)> setup;
  std::function<void(GgufParts&)> mutate;
  const char* exit_status;
  const char* errors;
};

void write(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

const Case kCases[] = {
    {"faithful", 1, {}, {}, "0", ""},
    {"faithful-sharded", 2, {}, {}, "0", ""},
    {"flipped-bit", 1, {}, [](GgufParts& p) { p.find("blk.1.ffn_gate.weight")->data[9] ^= 1; }, "1", "AU.value-mismatch"},
    {"unpermuted-qk", 1, [](auto&, ConvertOptions& o) { o.permute_qk = false; }, {}, "1",
     "AU.value-mismatch AU.value-mismatch AU.value-mismatch AU.value-mismatch"},
    {"missing-tensor", 1, {}, [](GgufParts& p) { p.erase_tensor("blk.1.attn_v.weight"); }, "1", "AU.missing-tensor"},
    {"unexplained-tensor", 1, {}, [](GgufParts& p) { p.tensors.push_back({"blk.9.attn_q.weight", 0, {8}, std::string(32, '\0')}); },
     "1", "AU.unexplained-tensor"},
    {"missing-rope", 1, [](auto&, ConvertOptions& o) { o.rope_freqs = false; }, {}, "1", "AU.rope-freqs"},
    {"wrong-rope", 1, [](auto&, ConvertOptions& o) { o.rope_as = tgtest::Llama3Rope{8.0, 1.0, 4.0, 8192.0}; }, {}, "1",
     "AU.rope-freqs"},
    {"metadata-head-count-kv", 1, {}, [](GgufParts& p) { p.set_u32("llama.attention.head_count_kv", 4); }, "1", "AU.metadata"},
    {"metadata-rms-eps", 1, {}, [](GgufParts& p) { p.set_f32("llama.attention.layer_norm_rms_epsilon", 1e-6f); }, "1",
     "AU.metadata"},
    {"lossy-q8_0", 1, [](tgtest::TinyLlama& m, ConvertOptions& o) { m.head_dim = 8, m.hidden = 32, m.intermediate = 64, o.weight_type = 8; }, {},
     "0", ""},
    {"lossy-q4_0-beyond", 1, [](tgtest::TinyLlama& m, ConvertOptions& o) { m.head_dim = 8, m.hidden = 32, m.intermediate = 64, o.weight_type = 2; },
     [](GgufParts& p) { p.find("blk.0.ffn_up.weight")->data[3] ^= 0x77; }, "1", "AU.lossy-threshold"},
};

std::string le(std::uint64_t v, unsigned bytes) {
  std::string out;
  for (unsigned i = 0; i < bytes; ++i) out += static_cast<char>((v >> (8 * i)) & 0xff);
  return out;
}

std::string fuzz_seed(const std::map<std::string, std::string>& src, const std::string& gguf) {
  const std::string& config = src.at("config.json");
  const std::string& st = src.at("model.safetensors");
  return le(3, 1) + le(config.size(), 2) + config + le(st.size(), 4) + st + gguf;
}

}  // namespace

int main(int argc, char** argv) {
  const bool seeds = argc == 3 && std::string(argv[1]) == "--seeds";
  if (argc != 2 && !seeds) {
    std::fputs("usage: audit_write_conversions [--seeds] OUT_DIR\n", stderr);
    return 2;
  }
  const fs::path out = argv[argc - 1];
  fs::create_directories(out);
  std::ofstream manifest;
  if (!seeds) manifest.open(out / "MANIFEST.tsv");
  for (const Case& c : kCases) {
    tgtest::TinyLlama m;
    ConvertOptions o;
    if (c.setup) c.setup(m, o);
    const auto tensors = tgtest::make_checkpoint(m);
    GgufParts parts = tgtest::convert(m, tensors, o);
    if (c.mutate) c.mutate(parts);
    if (seeds) {
      if (c.shards == 1) write(out / (std::string(c.name) + ".bin"), fuzz_seed(tgtest::source_files(m, tensors), parts.build()));
      continue;
    }
    fs::create_directories(out / c.name / "src");
    for (const auto& [name, bytes] : tgtest::source_files(m, tensors, c.shards)) write(out / c.name / "src" / name, bytes);
    write(out / c.name / "model.gguf", parts.build());
    manifest << c.name << '\t' << c.exit_status << '\t' << c.errors << '\n';
  }
  return 0;
}
