// Pickle and zip scanning speed against reading the same bytes once (bench/README.md): a
// ~1 GB PyTorch archive of 300 tensors as torch.save writes it (stored entries, bit 3 set,
// data descriptors, FB padding), and a ~100 MB pickle of many small objects (a list of dicts,
// batched and memoised as CPython's pickler writes them). Both are built in memory by the
// tests' builders. The baseline copies the bytes once in 1 MiB chunks (what read() from the
// page cache does); the scanners are fed the same chunks. The ratio is the figure.
#include <benchmark/benchmark.h>

#include <cstring>
#include <memory>
#include <span>
#include <string>

#include "pickle_builder.hpp"
#include "tensorgate/pickle.hpp"
#include "tensorgate/validator.hpp"
#include "tensorgate/zip.hpp"
#include "zip_builder.hpp"

namespace {

constexpr std::size_t kChunk = 1 << 20;

const std::string& archive() {
  static const std::string bytes = [] {
    std::vector<tgtest::TorchTensor> tensors;
    for (int i = 0; i < 300; ++i)  // 900 x 1000 F32: 3.6 MB each, 1.08 GB in all
      tensors.push_back({"model.layers." + std::to_string(i / 10) + ".w" + std::to_string(i % 10), "FloatStorage", {900, 1000}});
    return tgtest::torch_archive(tensors);
  }();
  return bytes;
}

// A list of 1,500,000 small dicts {'id': i, 'name': '...', 'score': 0.5, 'tags': [..]}, in
// APPENDS batches of 1000 as CPython writes lists, each object memoised.
const std::string& small_objects() {
  static const std::string bytes = [] {
    tgtest::PickleBuilder b;
    b.proto(4).op(']').memoize();
    for (int batch = 0; batch < 1500; ++batch) {
      b.mark();
      for (int k = 0; k < 1000; ++k) {
        const int i = batch * 1000 + k;
        b.op('}').memoize().mark();
        b.str("id").integer(i).str("name").str("object-" + std::to_string(i)).memoize();
        b.str("score").raw(std::string("G\x3f\xe0\x00\x00\x00\x00\x00\x00", 9));
        b.str("tags").op(']').memoize().mark().str("a").str("bb").integer(i & 0xff).op('e');
        b.op('u');
      }
      b.op('e');
    }
    b.stop();
    return b.bytes();
  }();
  return bytes;
}

void read_once(benchmark::State& state, const std::string& bytes) {
  const auto buffer = std::make_unique_for_overwrite<char[]>(kChunk);
  for (auto _ : state) {
    for (std::size_t at = 0; at < bytes.size(); at += kChunk) {
      const std::size_t n = std::min(kChunk, bytes.size() - at);
      std::memcpy(buffer.get(), bytes.data() + at, n);
      benchmark::DoNotOptimize(buffer.get());
      benchmark::ClobberMemory();
    }
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes.size()));
}

template <typename Make>
void scan(benchmark::State& state, const std::string& bytes, Make make) {
  const auto buffer = std::make_unique_for_overwrite<char[]>(kChunk);
  bool valid = false;
  for (auto _ : state) {
    auto v = make();
    v->set_total_size(bytes.size());
    for (std::size_t at = 0; at < bytes.size(); at += kChunk) {
      const std::size_t n = std::min(kChunk, bytes.size() - at);
      std::memcpy(buffer.get(), bytes.data() + at, n);  // the read the baseline does
      v->feed(std::span(reinterpret_cast<const std::byte*>(buffer.get()), n));
    }
    valid = v->finish().valid;
  }
  if (!valid) state.SkipWithError("the benchmark input is not valid");
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes.size()));
}

void BM_ArchiveRead(benchmark::State& state) { read_once(state, archive()); }
void BM_ArchiveScan(benchmark::State& state) {
  scan(state, archive(), [] { return tensorgate::make_zip_validator(); });
}
void BM_PickleRead(benchmark::State& state) { read_once(state, small_objects()); }
void BM_PickleScan(benchmark::State& state) {
  scan(state, small_objects(), [] { return tensorgate::make_pickle_validator(); });
}

BENCHMARK(BM_ArchiveRead)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_ArchiveScan)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_PickleRead)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_PickleScan)->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace

BENCHMARK_MAIN();
