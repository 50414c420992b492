// The chat template lexer (family CT): throughput and linearity, against baselines measured in
// the same run over the same bytes.
//   BM_Baseline_CountUnderscores/N   one pass over N bytes counting '_' (touching every byte once)
//   BM_Template_Tags/N               N bytes of real template text (tags, strings, names, data)
//   BM_Template_OneString/N          one string literal of N bytes (the lexer's string path)
//   BM_Template_Data/N               N bytes of text outside any tag
//   BM_Template_Payloads/N           N bytes of payloads (a finding every few bytes, one reported)
//   BM_Gguf_TemplateValue/N          a GGUF whose tokenizer.chat_template is the N tag bytes
//   BM_Gguf_PlainValue/N             the same GGUF with the value under another key (no lexer)
// N runs from 1 MiB to 64 MiB: time per byte stays flat (the lexer is linear).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <string>

#include "gguf_builder.hpp"
#include "tensorgate/chat_template.hpp"
#include "tensorgate/gguf.hpp"
#include "tensorgate/report.hpp"

namespace {

// A piece in the style of the Llama 3.1 tool template, repeated.
constexpr std::string_view kPiece =
    "{%- for message in messages %}\n"
    "    {%- if not (message.role == 'ipython' or message.role == 'tool' or 'tool_calls' in message) %}\n"
    "        {{- '<|start_header_id|>' + message['role'] + '<|end_header_id|>\\n\\n' + message['content'] | trim + '<|eot_id|>' }}\n"
    "    {%- elif 'tool_calls' in message %}\n"
    "        {%- set tool_call = message.tool_calls[0].function %}\n"
    "        {{- '{\"name\": \"' + tool_call.name + '\", ' }}{{- tool_call.arguments | tojson }}\n"
    "    {%- endif %}\n"
    "{%- endfor %}\n"
    "{#- a comment between the turns -#}Cutting Knowledge Date: December 2023\n";

std::string repeated(std::string_view piece, std::size_t n) {
  std::string s;
  s.reserve(n + piece.size());
  while (s.size() < n) s += piece;
  s.resize(n);
  return s;
}

const std::string& tags(std::size_t n) {
  static std::string s;
  if (s.size() != n) s = repeated(kPiece, n);
  return s;
}

void run(benchmark::State& state, const std::string& text) {
  for (auto _ : state) benchmark::DoNotOptimize(tensorgate::check_chat_template(text));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}

void BM_Baseline_CountUnderscores(benchmark::State& state) {
  const std::string& text = tags(static_cast<std::size_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(std::count(text.begin(), text.end(), '_'));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}

void BM_Template_Tags(benchmark::State& state) { run(state, tags(static_cast<std::size_t>(state.range(0)))); }

void BM_Template_OneString(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  run(state, "{{ '" + repeated("You are a helpful assistant. ", n) + "' }}");
}

void BM_Template_Data(benchmark::State& state) {
  run(state, repeated("Cutting Knowledge Date: December 2023. Today Date: 26 Jul 2024.\n", static_cast<std::size_t>(state.range(0))));
}

void BM_Template_Payloads(benchmark::State& state) {
  run(state, repeated("{{ x.__class__ }}{{ y|attr('\\x5f\\x5f') }}{{ z[w] }}", static_cast<std::size_t>(state.range(0))));
}

std::string gguf_with(std::string_view key, const std::string& value) {
  tgtest::GgufBuilder b;
  b.kv_str("general.architecture", "llama").kv_str(key, value).tensor("w", 0, {8});
  return b.build();
}

void gguf(benchmark::State& state, std::string_view key) {
  const std::string file = gguf_with(key, tags(static_cast<std::size_t>(state.range(0))));
  for (auto _ : state) benchmark::DoNotOptimize(tensorgate::validate_gguf(file));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * file.size()));
}
void BM_Gguf_TemplateValue(benchmark::State& state) { gguf(state, "tokenizer.chat_template"); }
void BM_Gguf_PlainValue(benchmark::State& state) { gguf(state, "general.description"); }

}  // namespace

#define SIZES ->RangeMultiplier(4)->Range(1 << 20, 64 << 20)->Unit(benchmark::kMillisecond)
BENCHMARK(BM_Baseline_CountUnderscores) SIZES;
BENCHMARK(BM_Template_Tags) SIZES;
BENCHMARK(BM_Template_OneString) SIZES;
BENCHMARK(BM_Template_Data) SIZES;
BENCHMARK(BM_Template_Payloads) SIZES;
BENCHMARK(BM_Gguf_TemplateValue) SIZES;
BENCHMARK(BM_Gguf_PlainValue) SIZES;
BENCHMARK_MAIN();
