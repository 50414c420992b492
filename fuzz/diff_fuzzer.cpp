// tensorgate diff over a fuzzed pair: each side a config.json and one file (safetensors, GGUF
// or a PyTorch checkpoint, by content; seeds: the pairs of tests/tools/write_diff_pairs
// --seeds), so mutations land in names (the rename patterns), shapes, dtypes, metadata, config
// keys and values.
// Invariants: every tensor of each side is in exactly one change or in `unchanged`; renames and
// pairs relate one tensor of each side; no read leaves the files and no byte is read more than
// the two sides hold; the report never depends on the chunk size; every writer runs, and the
// markdown stays under its bound.
//
// Input: u8 values flag, u16 config A length, config A, u16 config B length, config B,
// u32 file A length, file A, file B.
#include <cstdint>
#include <set>
#include <string>

#include "framed_input.hpp"
#include "fuzz_support.hpp"
#include "tensorgate/detect.hpp"
#include "tensorgate/diff.hpp"
#include "tensorgate/zip.hpp"

using tensorgate::GgufSummary;
using tensorgate::PickleSummary;
using tensorgate::SafetensorsSummary;
using tensorgate::ZipSummary;

namespace {

tensorgate::Report validate(std::string_view bytes) {
  auto v = tensorgate::make_validator(tensorgate::FormatChoice::auto_detect, {});
  v->set_total_size(bytes.size());
  v->feed(bytes);
  return v->finish();
}

std::uint64_t tensors_of(const tensorgate::Report& r) {
  if (r.summary.get<SafetensorsSummary>() && r.summary.get<SafetensorsSummary>()->tensors) return r.summary.get<SafetensorsSummary>()->tensors->size();
  if (r.summary.get<GgufSummary>() && r.summary.get<GgufSummary>()->tensors) return r.summary.get<GgufSummary>()->tensors->size();
  // A PyTorch checkpoint's state dict: its named tensors, each name once.
  const tensorgate::PickleSummary* state = r.summary.get<PickleSummary>() ? &*r.summary.get<PickleSummary>() : r.summary.get<ZipSummary>() ? tensorgate::pytorch_state(*r.summary.get<ZipSummary>()) : nullptr;
  if (!state) return 0;
  std::set<std::string_view> names;
  for (const auto& t : state->tensors)
    if (!t.name.empty()) names.insert(t.name);
  return names.size();
}

void check(const tensorgate::DiffReport& r, std::uint64_t old_tensors, std::uint64_t new_tensors, std::uint64_t bytes) {
  tgfuzz::require(!r.io_error, "reads-stay-inside-valid-files", r.io_error.value_or(""));
  tgfuzz::require(r.bytes_read <= bytes, "each-byte-read-once");
  if (r.invalid) return tgfuzz::require(r.changes.empty() && r.gate_failed, "invalid-means-no-diff");
  std::uint64_t olds = r.unchanged.size(), news = r.unchanged.size();
  for (const auto& c : r.changes) {
    tgfuzz::require(!c.kinds.empty(), "a-change-has-a-kind");
    tgfuzz::require(c.old_tensor || c.new_tensor, "a-change-has-a-tensor");
    tgfuzz::require(c.kinds.has(tensorgate::ChangeKind::added) == !c.old_tensor, "added-has-no-old");
    tgfuzz::require(c.kinds.has(tensorgate::ChangeKind::removed) == !c.new_tensor, "removed-has-no-new");
    olds += c.old_tensor.has_value();
    news += c.new_tensor.has_value();
  }
  // Duplicate names of a side are kept once (the validator refused them anyway).
  tgfuzz::require(olds == old_tensors && news == new_tensors, "every-tensor-once");
}

std::string rendered(const tensorgate::DiffReport& r) {
  std::string json, sarif, text, md;
  tensorgate::write_diff_json(r, [&](std::string_view s) { json += s; });
  tensorgate::write_diff_sarif(r, [&](std::string_view s) { sarif += s; });
  tensorgate::write_diff_text(r, {}, [&](std::string_view s) { text += s; });
  tensorgate::write_diff_markdown(r, {}, [&](std::string_view s) { md += s; });
  tgfuzz::require(md.size() <= tensorgate::DiffLimits{}.markdown_max_bytes, "markdown-bounded");
  return json;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view in = tgfuzz::as_text(data, size);
  const bool values = tgfuzz::take_le(in, 1) & 1;
  const std::string_view config_a = tgfuzz::take_bytes(in, tgfuzz::take_le(in, 2));
  const std::string_view config_b = tgfuzz::take_bytes(in, tgfuzz::take_le(in, 2));
  const std::string_view file_a = tgfuzz::take_bytes(in, tgfuzz::take_le(in, 4));
  const std::string_view file_b = in;
  const tensorgate::Report ra = validate(file_a), rb = validate(file_b);
  tgfuzz::MemorySource ba(file_a), bb(file_b);
  tensorgate::DiffSide a{"old", {{"old/a", &ra, values ? &ba : nullptr}}, std::nullopt, nullptr};
  tensorgate::DiffSide b{"new", {{"new/b", &rb, values ? &bb : nullptr}}, std::nullopt, nullptr};
  if (!config_a.empty()) a.config_json = config_a;
  if (!config_b.empty()) b.config_json = config_b;
  tensorgate::DiffOptions options;
  options.values = values;
  options.fail_on = tensorgate::ChangeSet::all();
  const tensorgate::DiffReport whole = tensorgate::diff_models(a, b, options);
  const std::uint64_t old_tensors = tensors_of(ra), new_tensors = tensors_of(rb);
  check(whole, old_tensors, new_tensors, file_a.size() + file_b.size());
  const std::string json = rendered(whole);
  if (!values) return 0;
  tensorgate::Limits big;
  big.diff.chunk_bytes = 8 << 20;
  tensorgate::Limits small;
  small.diff.chunk_bytes = 1;  // raised to the 64 KiB floor
  small.diff.max_pieces = 1;
  for (const tensorgate::Limits* l : {&big, &small}) {
    const tensorgate::DiffReport other = tensorgate::diff_models(a, b, options, *l);
    tgfuzz::require(rendered(other) == json, "chunking-changes-nothing");
  }
  return 0;
}
