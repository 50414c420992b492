// The conversion audit on a pair of about 1 GB (a BF16 llama checkpoint of ~512 MiB and its
// GGUF): throughput of `audit_conversion` against reading both files once, in the same run.
// The pair is written into a fresh temporary directory (with real, non-repeating values, so
// that comparisons do real work) and removed at exit.
//
// usage: audit_bench [--layers N] [benchmark flags]   (N = 4 gives the ~1 GB pair)
// Both benchmarks read through the page cache: the first run warms it, so the figures compare
// the audit's work with the cost of the reads themselves, not with the disk.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_pair.hpp"
#include "conversion_builder.hpp"
#include "file_check.hpp"
#include "file_source.hpp"
#include "tensorgate/audit.hpp"

namespace {

namespace fs = std::filesystem;
using tgtest::TinyLlama;

using tgbench::element;
using tgbench::Fd;

struct Pair {
  tgbench::Scratch scratch{"tensorgate-audit-bench"};
  fs::path src = scratch.dir / "src", gguf = scratch.dir / "model.gguf";
  std::uint64_t bytes = 0;  // both files
};

// The GGUF as the converter writes it: q/k rows permuted, norms widened, rope_freqs generated.
void write_gguf(const TinyLlama& m, const fs::path& path) {
  tgtest::GgufParts p;
  tgtest::add_llama_metadata(p, m, 30);
  const auto rope = tgtest::llama3_rope_factors(m, *m.rope);
  p.tensors.push_back({"rope_freqs.weight", 0, {m.head_dim / 2}, {}});
  const auto shapes = tgtest::checkpoint_shapes(m);
  for (const auto& [name, shape] : shapes)
    p.tensors.push_back({tgtest::llama_gguf_name(name), shape.size() == 1 ? 0u : 30u, {shape.rbegin(), shape.rend()}, {}});
  std::vector<std::uint64_t> offsets;
  const std::string meta = p.build_metadata(offsets);
  const Fd fd(path, O_WRONLY | O_CREAT | O_TRUNC);
  fd.write_at(0, meta.data(), meta.size());
  fd.write_at(meta.size() + offsets[0], rope.data(), rope.size() * 4);
  for (std::size_t t = 0; t < shapes.size(); ++t) {
    const auto& [name, shape] = shapes[t];
    const std::uint64_t rows = shape[0], cols = shape.size() > 1 ? shape[1] : 1;
    const bool q = name.ends_with("q_proj.weight"), k = name.ends_with("k_proj.weight");
    const std::uint64_t heads = q ? m.heads : m.kv_heads, half = rows / heads / 2;
    std::vector<std::uint32_t> f32;
    std::vector<std::uint16_t> bf16;
    for (std::uint64_t r = 0; r < rows; ++r) {
      // The converter's order: head h, pair i, side j holds source row (2h + j) * half + i.
      const std::uint64_t src = (q || k) ? ((r / (2 * half)) * 2 + r % 2) * half + (r % (2 * half)) / 2 : r;
      for (std::uint64_t c = 0; c < cols; ++c) {
        const std::uint16_t v = element(t, src * cols + c);
        if (shape.size() == 1) f32.push_back(std::uint32_t{v} << 16);
        else bf16.push_back(v);
      }
    }
    if (shape.size() == 1) fd.write_at(meta.size() + offsets[t + 1], f32.data(), f32.size() * 4);
    else fd.write_at(meta.size() + offsets[t + 1], bf16.data(), bf16.size() * 2);
  }
}

std::unique_ptr<Pair> g_pair;

void make_pair(std::uint64_t layers) {
  g_pair = std::make_unique<Pair>();
  fs::create_directories(g_pair->src);
  const TinyLlama m = tgbench::bench_model(layers);
  std::FILE* config = std::fopen((g_pair->src / "config.json").c_str(), "w");
  std::fputs(m.config_json().c_str(), config);
  std::fclose(config);
  tgbench::write_source(m, g_pair->src / "model.safetensors");
  write_gguf(m, g_pair->gguf);
  g_pair->bytes = fs::file_size(g_pair->src / "model.safetensors") + fs::file_size(g_pair->gguf);
}

// The baseline: both files read once, in order, in 4 MiB reads (the audit's chunk size).
void BM_ReadBothOnce(benchmark::State& state) {
  for (auto _ : state) tgbench::read_once({g_pair->src / "model.safetensors", g_pair->gguf});
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * g_pair->bytes));
}

// The audit as `tensorgate audit` runs it: validate both files (headers), then compare.
void BM_Audit(benchmark::State& state) {
  for (auto _ : state) {
    const auto src_file = tensorgate::cli::check_file((g_pair->src / "model.safetensors").string(), {});
    const auto gguf_file = tensorgate::cli::check_file(g_pair->gguf.string(), {});
    tensorgate::cli::FileSource src, gguf;  // the CLI's own reader
    if (!src.open((g_pair->src / "model.safetensors").string()) || !gguf.open(g_pair->gguf.string())) {
      state.SkipWithError("cannot open the pair");
      break;
    }
    tensorgate::AuditInput in;
    const std::string real_config = [] {
      std::FILE* f = std::fopen((g_pair->src / "config.json").c_str(), "r");
      std::string s(1 << 16, '\0');
      s.resize(std::fread(s.data(), 1, s.size(), f));
      std::fclose(f);
      return s;
    }();
    in.config_json = real_config;
    in.sources.push_back({"model.safetensors", &*src_file.report, &src, src.size()});
    in.gguf = &*gguf_file.report;
    in.gguf_bytes = &gguf;
    in.gguf_file_size = gguf.size();
    const auto report = tensorgate::audit_conversion(in);
    if (!report.faithful) state.SkipWithError("the benchmark's pair is not faithful");
    benchmark::DoNotOptimize(report.bytes_read);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * g_pair->bytes));
}

BENCHMARK(BM_ReadBothOnce)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(BM_Audit)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);

}  // namespace

int main(int argc, char** argv) {
  const std::uint64_t layers = tgbench::take_layers(argc, argv);
  benchmark::Initialize(&argc, argv);
  make_pair(layers);
  std::fprintf(stderr, "audit pair: %.1f MB in %s\n", static_cast<double>(g_pair->bytes) / 1e6, g_pair->scratch.dir.c_str());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  g_pair.reset();  // removes the pair
  return 0;
}
