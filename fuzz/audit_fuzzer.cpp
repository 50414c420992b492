// The conversion audit over a fuzzed pair: the input holds a config.json, a safetensors file and
// a GGUF file (seeds: small conversions written by tests/audit_write_conversions --seeds), so
// mutations land in names, shapes, metadata, q/k rows and tensor values alike. Invariants: the
// report never depends on the chunk size or the batch size (every ByteSource read stays inside
// the files), the verdict is "no error finding", every tensor row has one verdict, and the byte
// accounting's lines add up to the difference of the tensor data. The audit's JSON, SARIF and
// text reports take whatever it found.
//
// Input: u8 max_pieces, u16 config length, config, u32 safetensors length, safetensors, GGUF.
#include <cstdint>
#include <string>

#include "framed_input.hpp"
#include "fuzz_support.hpp"
#include "tensorgate/audit.hpp"
#include "tensorgate/model_dir.hpp"
#include "tensorgate/validator.hpp"

namespace {

void check(const tensorgate::AuditReport& r) {
  bool errors = false;
  for (const auto& f : r.findings) errors = errors || f.severity == tensorgate::Severity::error;
  tgfuzz::require(!r.faithful || (!errors && !r.io_error), "faithful-means-no-error");
  tgfuzz::require(r.faithful || errors || r.findings_dropped || r.io_error, "unfaithful-means-an-error");
  const auto& c = r.counts;
  tgfuzz::require(c.exact + c.lossy + c.not_compared + c.generated + c.failed == r.tensors.size(), "one-verdict-a-row");
  if (r.bytes.lines.empty()) return;
  std::uint64_t src = 0, dst = 0;
  for (const auto& l : r.bytes.lines) src += l.source_bytes, dst += l.gguf_bytes;
  tgfuzz::require(src == r.bytes.source_tensor_bytes && dst == r.bytes.gguf_tensor_bytes, "accounting-adds-up");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view in = tgfuzz::as_text(data, size);
  const auto pieces = static_cast<std::uint32_t>(1 + tgfuzz::take_le(in, 1) % 8);
  const std::string_view config = tgfuzz::take_bytes(in, tgfuzz::take_le(in, 2));
  const std::string_view st = tgfuzz::take_bytes(in, tgfuzz::take_le(in, 4));
  const std::string_view gguf = in;

  tensorgate::ModelDirectory md;
  md.config_json = std::string(config);
  md.file_names = {"config.json", "model.safetensors"};
  const tensorgate::Report st_report = tensorgate::validate_safetensors(st);
  md.weights.push_back(tensorgate::inventory_of("model.safetensors", st_report));
  const tensorgate::DirectoryReport dir = tensorgate::check_model_directory(md);
  const tensorgate::Report gguf_report = tensorgate::validate_gguf(gguf);
  tgfuzz::MemorySource st_bytes(st), gguf_bytes(gguf);
  tensorgate::AuditInput input;
  input.config_json = config;
  input.directory = &dir;
  input.sources.push_back({"model.safetensors", &st_report, &st_bytes, st.size()});
  input.gguf = &gguf_report;
  input.gguf_bytes = &gguf_bytes;
  input.gguf_file_size = gguf.size();

  const tensorgate::AuditReport whole = tensorgate::audit_conversion(input);
  check(whole);
  tgfuzz::require(!whole.io_error, "reads-stay-inside-valid-files", whole.io_error.value_or(""));
  tensorgate::Limits small;
  small.audit.chunk_bytes = 1;  // raised to the 64 KiB floor
  small.audit.max_pieces = pieces;
  const tensorgate::AuditReport chunked = tensorgate::audit_conversion(input, small);
  check(chunked);
  tgfuzz::require(chunked.findings == whole.findings && chunked.faithful == whole.faithful, "chunking-changes-nothing");
  std::vector<tensorgate::CheckedFile> written;
  written.push_back({"model.gguf", std::nullopt, std::nullopt, std::nullopt, whole});
  written.push_back({"model.safetensors", st_report, std::nullopt});
  tgfuzz::check_writers(written, 1 + pieces * 64);
  return 0;
}
