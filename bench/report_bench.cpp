// The report writers in MB/s of output: JSON, SARIF and text over the report of a
// synthetic header (1,000 and 100,000 tensors, the inventory included), written to a sink that
// only counts, against one memcpy of the same number of bytes into a buffer (the floor: what a
// writer that did no formatting at all would still cost). bench/run_speed.py prints the ratios.
#include <benchmark/benchmark.h>

#include <cstring>
#include <map>
#include <vector>

#include "synthetic_header.hpp"
#include "tensorgate/report_writers.hpp"
#include "tensorgate/validator.hpp"

namespace {

const std::vector<tensorgate::CheckedFile>& checked(std::int64_t count) {
  static std::map<std::int64_t, std::vector<tensorgate::CheckedFile>> cache;
  auto it = cache.find(count);
  if (it != cache.end()) return it->second;
  const auto h = tgbench::make_header(static_cast<std::uint64_t>(count));
  auto v = tensorgate::make_safetensors_validator();
  v->set_total_size(h.file_prefix.size() + h.data_length);
  v->feed(h.file_prefix);
  v->skip(h.data_length);
  std::vector<tensorgate::CheckedFile> files(1);
  files[0].path = "model.safetensors";
  files[0].report = v->finish();
  return cache.emplace(count, std::move(files)).first->second;
}

using Writer = void (*)(std::span<const tensorgate::CheckedFile>, const tensorgate::ReportOptions&,
                        const tensorgate::JsonWriter::Sink&);

void run_writer(benchmark::State& state, Writer write) {
  const auto& files = checked(state.range(0));
  std::size_t bytes = 0;
  for (auto _ : state) {
    bytes = 0;
    write(files, {}, [&bytes](std::string_view s) {
      benchmark::DoNotOptimize(s.data());
      bytes += s.size();
    });
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
  state.counters["output_MB"] = static_cast<double>(bytes) / 1e6;
}

void BM_JsonReport(benchmark::State& state) { run_writer(state, tensorgate::write_json_report); }
void BM_SarifReport(benchmark::State& state) { run_writer(state, tensorgate::write_sarif_report); }
void BM_TextReport(benchmark::State& state) { run_writer(state, tensorgate::write_text_report); }

// The floor for the JSON report: its own size copied once, in the writer's 64 KiB pieces.
void BM_CopyJsonSize(benchmark::State& state) {
  std::size_t bytes = 0;
  tensorgate::write_json_report(checked(state.range(0)), {}, [&bytes](std::string_view s) { bytes += s.size(); });
  const std::vector<char> from(bytes, 'x');
  std::vector<char> to(1 << 16);
  for (auto _ : state) {
    for (std::size_t at = 0; at < bytes; at += to.size()) {
      std::memcpy(to.data(), from.data() + at, std::min(to.size(), bytes - at));
      benchmark::DoNotOptimize(to.data());
    }
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
  state.counters["output_MB"] = static_cast<double>(bytes) / 1e6;
}

}  // namespace

BENCHMARK(BM_CopyJsonSize)->Arg(1'000)->Arg(100'000)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_JsonReport)->Arg(1'000)->Arg(100'000)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SarifReport)->Arg(1'000)->Arg(100'000)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_TextReport)->Arg(1'000)->Arg(100'000)->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_MAIN();
