// GGUF validation speed and memory: a file with Llama-3-sized tokenizer metadata
// (128,000 tokens and token types, 280,000 merges, 300 tensors: ~9.6 MB before the data) and
// one with 1,000,000 tensor infos. Both are built in memory; their data (gigabytes) is never
// made: the validator is told the file size and skips it, as the CLI does.
//
//   gguf_bench                        Google Benchmark: time and bytes/s of the metadata
//   gguf_bench --write=DIR            writes DIR/llama3.gguf and DIR/million.gguf (the data
//                                     sparse) for timing `tensorgate check` as a whole process
//   gguf_bench --peak-rss=FILE        validates FILE as the CLI does and prints the peak RSS
//                                     (getrusage) before and after
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

#include "gguf_builder.hpp"
#include "tensorgate/gguf.hpp"
#include "tensorgate/validator.hpp"

namespace {

using tgtest::GgufBuilder;

struct BenchFile {
  std::string metadata;     // header to the end of the padding
  std::uint64_t data_size;  // the tensor data that follows (never materialised)
};

// Byte-level BPE tokens as Llama 3 writes them: mostly ASCII with 'Ġ' (U+0120) for spaces.
std::string token(std::size_t i) {
  static constexpr char kLetters[] = "etaoinshrdlucmfwypvbgkjqxz";
  std::string t = (i % 3 == 0) ? "\xc4\xa0" : "";
  for (std::size_t v = i + 7; t.size() < 6 + i % 5; v /= 26) t += kLetters[v % 26];
  return t;
}

BenchFile llama3() {
  GgufBuilder b;
  b.kv_str("general.architecture", "llama").kv_str("general.name", "Meta Llama 3 8B Instruct");
  b.kv_u32("general.file_type", 15).kv_u32("general.quantization_version", 2);
  b.kv_u32("llama.block_count", 32).kv_u32("llama.context_length", 131072).kv_u32("llama.embedding_length", 4096);
  b.kv_u32("llama.feed_forward_length", 14336).kv_u32("llama.attention.head_count", 32);
  b.kv_u32("llama.attention.head_count_kv", 8).kv_f32("llama.rope.freq_base", 500000.0f);
  b.kv_str("tokenizer.ggml.model", "gpt2").kv_str("tokenizer.ggml.pre", "llama-bpe");
  std::vector<std::string> tokens;
  std::vector<std::int32_t> types;
  for (std::size_t i = 0; i < 128000; ++i) {
    tokens.push_back(token(i));
    types.push_back(i < 256 ? 6 : 1);
  }
  std::vector<std::string> merges;
  for (std::size_t i = 0; i < 280000; ++i) merges.push_back(token(i % 128000) + " " + token((i * 7919) % 128000));
  b.kv_strings("tokenizer.ggml.tokens", tokens).kv_i32s("tokenizer.ggml.token_type", types);
  b.kv_strings("tokenizer.ggml.merges", merges);
  b.kv_u32("tokenizer.ggml.bos_token_id", 127999).kv_u32("tokenizer.ggml.eos_token_id", 127998);
  b.kv_str("tokenizer.chat_template",
           "{% set loop_messages = messages %}{% for message in loop_messages %}{% set content = "
           "'<|start_header_id|>' + message['role'] + '<|end_header_id|>\n\n'+ message['content'] | trim + "
           "'<|eot_id|>' %}{% if loop.index0 == 0 %}{% set content = bos_token + content %}{% endif %}"
           "{{ content }}{% endfor %}{% if add_generation_prompt %}{{ '<|start_header_id|>assistant<|end_header_id|>\n\n' }}"
           "{% endif %}");
  const std::uint64_t e = 4096, ff = 14336, kv = 1024, vocab = 128000;
  b.tensor("token_embd.weight", 12, {e, vocab});
  for (int l = 0; l < 32; ++l) {
    const std::string p = "blk." + std::to_string(l) + ".";
    b.tensor(p + "attn_norm.weight", 0, {e}).tensor(p + "attn_q.weight", 12, {e, e});
    b.tensor(p + "attn_k.weight", 12, {e, kv}).tensor(p + "attn_v.weight", 14, {e, kv});
    b.tensor(p + "attn_output.weight", 12, {e, e}).tensor(p + "ffn_norm.weight", 0, {e});
    b.tensor(p + "ffn_gate.weight", 12, {e, ff}).tensor(p + "ffn_up.weight", 12, {e, ff});
    b.tensor(p + "ffn_down.weight", 14, {ff, e});
  }
  b.tensor("output_norm.weight", 0, {e}).tensor("output.weight", 14, {e, vocab}).tensor("rope_freqs.weight", 0, {64});
  for (int i = 0; i < 8; ++i) b.tensor("extra." + std::to_string(i) + ".weight", 0, {e});
  return {b.metadata(), b.padded_data_size()};
}

BenchFile million() {
  GgufBuilder b;
  b.kv_str("general.architecture", "llama").kv_u32("llama.block_count", 1000000 / 8);
  for (int i = 0; i < 1000000; ++i) b.tensor("blk." + std::to_string(i / 8) + ".w" + std::to_string(i % 8), 0, {16});
  return {b.metadata(), b.padded_data_size()};
}

const BenchFile& file(bool big_vocab) {
  static const BenchFile l = llama3();
  static const BenchFile m = million();
  return big_vocab ? l : m;
}

tensorgate::Report validate(const BenchFile& f, std::size_t chunk) {
  auto v = tensorgate::make_gguf_validator();
  v->set_total_size(f.metadata.size() + f.data_size);
  const std::string_view m = f.metadata;
  for (std::size_t at = 0; at < m.size(); at += chunk) v->feed(m.substr(at, chunk));
  v->skip(f.data_size);
  return v->finish();
}

void run(benchmark::State& state, bool big_vocab, std::size_t chunk) {
  const BenchFile& f = file(big_vocab);
  if (!validate(f, chunk).valid) state.SkipWithError("the benchmark file is not valid");
  for (auto _ : state) benchmark::DoNotOptimize(validate(f, chunk));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * f.metadata.size()));
  state.counters["metadata_MB"] = static_cast<double>(f.metadata.size()) / 1e6;
}

void BM_Llama3Tokenizer(benchmark::State& s) { run(s, true, SIZE_MAX); }
void BM_Llama3Tokenizer_64KiB(benchmark::State& s) { run(s, true, 1 << 16); }
void BM_MillionTensorInfos(benchmark::State& s) { run(s, false, SIZE_MAX); }
void BM_MillionTensorInfos_64KiB(benchmark::State& s) { run(s, false, 1 << 16); }
BENCHMARK(BM_Llama3Tokenizer)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Llama3Tokenizer_64KiB)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MillionTensorInfos)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MillionTensorInfos_64KiB)->Unit(benchmark::kMillisecond);

long max_rss_kib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

// Validates a file written by --write the way the CLI does (1 MiB reads, the data skipped), so
// that the high-water mark of RSS is the validator's own, not a built file's.
int peak_rss(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) {
    std::perror(path.c_str());
    return 1;
  }
  const auto size = static_cast<std::uint64_t>(::lseek(fd, 0, SEEK_END));
  ::lseek(fd, 0, SEEK_SET);
  const long before = max_rss_kib();
  auto v = tensorgate::make_gguf_validator();
  v->set_total_size(size);
  std::string buffer(1 << 20, '\0');
  std::uint64_t at = 0;
  while (v->bytes_wanted() > 0) {
    const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(buffer.size(), v->bytes_wanted()));
    const ssize_t n = ::read(fd, buffer.data(), want);
    if (n <= 0) break;
    at += static_cast<std::uint64_t>(n);
    v->feed(std::string_view(buffer.data(), static_cast<std::size_t>(n)));
  }
  v->skip(size - at);
  const auto r = v->finish();
  const long after = max_rss_kib();
  ::close(fd);
  std::printf("%s: %llu bytes, valid %d: peak RSS %ld KiB before validating, %ld KiB after (+%ld KiB)\n",
              path.c_str(), static_cast<unsigned long long>(size), r.valid ? 1 : 0, before, after, after - before);
  return r.valid ? 0 : 1;
}

int write_files(const std::string& dir) {
  for (const bool big : {true, false}) {
    const BenchFile& f = file(big);
    const std::string path = dir + (big ? "/llama3.gguf" : "/million.gguf");
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || ::write(fd, f.metadata.data(), f.metadata.size()) != static_cast<ssize_t>(f.metadata.size()) ||
        ::ftruncate(fd, static_cast<off_t>(f.metadata.size() + f.data_size)) != 0) {
      std::perror(path.c_str());
      return 1;
    }
    ::close(fd);
    std::printf("%s: %zu bytes of metadata, %llu bytes in all (sparse)\n", path.c_str(), f.metadata.size(),
                static_cast<unsigned long long>(f.metadata.size() + f.data_size));
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::strncmp(argv[1], "--peak-rss=", 11) == 0) return peak_rss(std::string(argv[1] + 11));
  if (argc == 2 && std::strncmp(argv[1], "--write=", 8) == 0) return write_files(argv[1] + 8);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
