// `tensorgate diff --values` on a pair of about 1 GB (two BF16 llama checkpoints of ~480 MB)
// against reading both files once, in the same run: a byte-identical copy (a re-upload: the
// memcmp path) and a fine-tune that moved every element by one unit in the last place (the
// element-by-element path, the worst case), and the headers-only diff of the same pair. The
// files are written into a fresh temporary directory (real, non-repeating values) and removed
// at exit.
//
// usage: diff_bench [--layers N] [benchmark flags]   (N = 4 gives the ~1 GB pair)
// Every benchmark reads through the page cache, warmed before the first, so the figures compare
// the diff's work with the cost of the reads themselves, not with the disk.
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <vector>

#include "bench_pair.hpp"
#include "diff_inputs.hpp"
#include "check_runner.hpp"
#include "tensorgate/diff.hpp"

namespace {

namespace fs = std::filesystem;

struct Files {
  std::unique_ptr<tgbench::Scratch> scratch;
  fs::path old_file, same_file, tuned_file;
  std::uint64_t pair_bytes = 0;  // OLD and one NEW
};
Files g_files;

void make_files(std::uint64_t layers) {
  g_files.scratch = std::make_unique<tgbench::Scratch>("tensorgate-diff-bench");
  const auto m = tgbench::bench_model(layers);
  g_files.old_file = g_files.scratch->dir / "old.safetensors";
  g_files.same_file = g_files.scratch->dir / "same.safetensors";
  g_files.tuned_file = g_files.scratch->dir / "tuned.safetensors";
  tgbench::write_source(m, g_files.old_file);
  tgbench::write_source(m, g_files.same_file);
  tgbench::write_source(m, g_files.tuned_file, 1);
  g_files.pair_bytes = fs::file_size(g_files.old_file) + fs::file_size(g_files.tuned_file);
  tgbench::read_once({g_files.old_file, g_files.same_file, g_files.tuned_file});  // warms the page cache
}

// The baseline: both files read once, in order, in 4 MiB reads (the diff's chunk size).
void BM_ReadBothOnce(benchmark::State& state) {
  for (auto _ : state) tgbench::read_once({g_files.old_file, g_files.tuned_file});
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * g_files.pair_bytes));
}

// The diff as `tensorgate diff` runs it: validate both files (headers), open them, compare.
void run_diff(benchmark::State& state, const fs::path& new_file, bool values, std::uint64_t want_changes) {
  const tensorgate::cli::CheckSettings settings;
  std::shared_ptr<void> session;  // local files: never made
  for (auto _ : state) {
    tensorgate::CountingBudget budget(1ull << 30);
    tensorgate::cli::DiffInput a, b;
    tensorgate::cli::gather_diff_input(g_files.old_file.string(), values, budget, settings, session, a);
    tensorgate::cli::gather_diff_input(new_file.string(), values, budget, settings, session, b);
    tensorgate::DiffOptions o;
    o.values = values;
    const auto r = tensorgate::diff_models(a.side, b.side, o);
    if (a.error || b.error || r.io_error || r.changes.size() != want_changes) {
      state.SkipWithError("the pair did not diff as expected");
      break;
    }
    benchmark::DoNotOptimize(r.bytes_read);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * g_files.pair_bytes));
}

void BM_DiffHeaders(benchmark::State& state) { run_diff(state, g_files.tuned_file, false, 0); }
void BM_DiffValuesIdentical(benchmark::State& state) { run_diff(state, g_files.same_file, true, 0); }
// range(0): the tensors of the model, every one of which the fine-tune changed.
void BM_DiffValuesFineTuned(benchmark::State& state) {
  run_diff(state, g_files.tuned_file, true, static_cast<std::uint64_t>(state.range(0)));
}

BENCHMARK(BM_ReadBothOnce)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
BENCHMARK(BM_DiffHeaders)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(1.0);
BENCHMARK(BM_DiffValuesIdentical)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);

}  // namespace

int main(int argc, char** argv) {
  const std::uint64_t layers = tgbench::take_layers(argc, argv);
  benchmark::Initialize(&argc, argv);
  make_files(layers);
  // Every tensor of the fine-tuned copy changed.
  const auto tensors = static_cast<std::int64_t>(tgtest::checkpoint_shapes(tgbench::bench_model(layers)).size());
  benchmark::RegisterBenchmark("BM_DiffValuesFineTuned", BM_DiffValuesFineTuned)
      ->Arg(tensors)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2.0);
  std::fprintf(stderr, "diff pair: %.1f MB in %s\n", static_cast<double>(g_files.pair_bytes) / 1e6,
               g_files.scratch->dir.c_str());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  g_files.scratch.reset();  // removes the files
  return 0;
}
