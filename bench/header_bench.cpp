// Header validation against Boost.JSON's own DOM parse of the same bytes and against its parser
// with a null handler (the floor), measured in the same run; also a header that the plain-header
// fast path scans whole and then hands back. Sizes: 1,000, 100,000 and 1,000,000 tensors.
// bench/run_header_bench.py and bench/run_speed.py print the ratios.
#include <benchmark/benchmark.h>

#include <boost/json.hpp>
#include <boost/json/basic_parser_impl.hpp>
#include <cstring>
#include <map>

#include "synthetic_header.hpp"
#include "tensorgate/validator.hpp"

namespace {

const tgbench::SyntheticHeader& header(std::int64_t count) {
  static std::map<std::int64_t, tgbench::SyntheticHeader> cache;
  auto it = cache.find(count);
  if (it == cache.end()) it = cache.emplace(count, tgbench::make_header(static_cast<std::uint64_t>(count))).first;
  return it->second;
}

void set_counters(benchmark::State& state, std::size_t bytes) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
  state.counters["ns_per_tensor"] = benchmark::Counter(
      static_cast<double>(state.range(0)), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["header_MB"] = static_cast<double>(bytes) / 1e6;
}

// Past the header: the data skipped, the report made and required valid.
void finish_valid(benchmark::State& state, tensorgate::Validator& v, const tgbench::SyntheticHeader& h) {
  v.skip(h.data_length);
  auto report = v.finish();
  if (!report.valid) state.SkipWithError("synthetic header is invalid");
  benchmark::DoNotOptimize(report);
}

void validate(benchmark::State& state, const tgbench::SyntheticHeader& h) {
  for (auto _ : state) {
    auto v = tensorgate::make_safetensors_validator();
    v->set_total_size(h.file_prefix.size() + h.data_length);
    v->feed(h.file_prefix);
    finish_valid(state, *v, h);
  }
  set_counters(state, h.file_prefix.size() - 8);
}

// The whole validator: length, header buffering, JSON, schema, tiling, canonical check, summary.
void BM_ValidateHeader(benchmark::State& state) { validate(state, header(state.range(0))); }

// The same, with the header read straight into the validator's room (prepare(), as
// `tensorgate check` reads a local file): the copy that stands in for that read runs with the
// clock stopped, as the floor's bytes are in memory before its clock starts. Page faults of the
// fresh room fall in that copy, as they would in the read.
void BM_ValidateHeaderInPlace(benchmark::State& state) {
  const auto& h = header(state.range(0));
  const std::string_view prefix = h.file_prefix;
  for (auto _ : state) {
    auto v = tensorgate::make_safetensors_validator();
    v->set_total_size(prefix.size() + h.data_length);
    v->feed(prefix.substr(0, 8));
    const std::span<std::byte> room = v->prepare(prefix.size() - 8);
    if (room.size() != prefix.size() - 8) {
      state.SkipWithError("no room for the whole header");
      break;
    }
    state.PauseTiming();
    std::memcpy(room.data(), prefix.data() + 8, room.size());
    state.ResumeTiming();
    v->feed(room);
    finish_valid(state, *v, h);
  }
  set_counters(state, prefix.size() - 8);
}

// The same header made not plain at its last byte: the fast path's whole scan, then the
// general parse (the fallback's worst case).
void BM_ValidateHeaderNotPlain(benchmark::State& state) {
  static std::map<std::int64_t, tgbench::SyntheticHeader> cache;
  auto it = cache.find(state.range(0));
  if (it == cache.end()) it = cache.emplace(state.range(0), tgbench::not_plain_at_end(header(state.range(0)))).first;
  validate(state, it->second);
}

// Boost.JSON parsing the same header text into a json::value, and nothing else.
void BM_BoostJsonDom(benchmark::State& state) {
  const auto& h = header(state.range(0));
  const std::string_view text = std::string_view(h.file_prefix).substr(8);
  for (auto _ : state) {
    boost::json::value v = boost::json::parse(text);
    benchmark::DoNotOptimize(v);
  }
  set_counters(state, text.size());
}

// The floor: Boost.JSON's parser with a handler that does nothing.
struct NullHandler {
  using ec = boost::json::error_code;
  using sv = boost::json::string_view;
  static constexpr std::size_t max_object_size = std::size_t(-1), max_array_size = std::size_t(-1),
                               max_key_size = std::size_t(-1), max_string_size = std::size_t(-1);
  bool on_document_begin(ec&) { return true; }
  bool on_document_end(ec&) { return true; }
  bool on_object_begin(ec&) { return true; }
  bool on_object_end(std::size_t, ec&) { return true; }
  bool on_array_begin(ec&) { return true; }
  bool on_array_end(std::size_t, ec&) { return true; }
  bool on_key_part(sv, std::size_t, ec&) { return true; }
  bool on_key(sv, std::size_t, ec&) { return true; }
  bool on_string_part(sv, std::size_t, ec&) { return true; }
  bool on_string(sv, std::size_t, ec&) { return true; }
  bool on_number_part(sv, ec&) { return true; }
  bool on_int64(std::int64_t, sv, ec&) { return true; }
  bool on_uint64(std::uint64_t, sv, ec&) { return true; }
  bool on_double(double, sv, ec&) { return true; }
  bool on_bool(bool, ec&) { return true; }
  bool on_null(ec&) { return true; }
  bool on_comment_part(sv, ec&) { return true; }
  bool on_comment(sv, ec&) { return true; }
};

void BM_BoostJsonNullHandler(benchmark::State& state) {
  const auto& h = header(state.range(0));
  const std::string_view text = std::string_view(h.file_prefix).substr(8);
  for (auto _ : state) {
    boost::json::basic_parser<NullHandler> p(boost::json::parse_options{});
    boost::json::error_code ec;
    benchmark::DoNotOptimize(p.write_some(false, text.data(), text.size(), ec));
  }
  set_counters(state, text.size());
}

}  // namespace

BENCHMARK(BM_BoostJsonNullHandler)->Arg(1'000)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ValidateHeader)->Arg(1'000)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ValidateHeaderInPlace)->Arg(1'000)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ValidateHeaderNotPlain)->Arg(1'000)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_BoostJsonDom)->Arg(1'000)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_MAIN();
