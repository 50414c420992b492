// Streaming and bounded memory: the audit reads through two fixed buffers, the GGUF once and in
// order, every source byte once (q and k rows as runs), whatever the chunk size; a read that
// fails stops it with an I/O error instead of a verdict.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

#include "conversion_builder.hpp"
#include "tensorgate/gguf.hpp"

namespace {

struct Read {
  std::uint64_t offset, size;
};

class Recorder final : public tensorgate::ByteSource {
 public:
  explicit Recorder(tensorgate::ByteSource& inner) : inner_(inner) {}
  bool read(std::uint64_t offset, std::span<std::byte> out) override {
    reads.push_back({offset, out.size()});
    if (fail_after && reads.size() > *fail_after) return false;
    return inner_.read(offset, out);
  }
  std::vector<Read> reads;
  std::optional<std::size_t> fail_after;

 private:
  tensorgate::ByteSource& inner_;
};

// A model whose tensors are many chunks long at the smallest chunk size (64 KiB).
tgtest::TinyLlama larger() {
  tgtest::TinyLlama m;
  m.layers = 1;
  m.heads = 8;
  m.kv_heads = 4;
  m.head_dim = 64;
  m.hidden = 512;
  m.intermediate = 1024;
  m.vocab = 512;
  return m;
}

struct Recorded {
  tgtest::AuditRun run;
  std::map<std::string, std::unique_ptr<Recorder>> files;
};

Recorded audit_recorded(const std::map<std::string, std::string>& source, const std::string& gguf,
                        const tensorgate::Limits& limits) {
  Recorded r;
  r.run = tgtest::audit_files(source, gguf, limits, [&](const std::string& name, tensorgate::ByteSource& inner) {
    return (r.files[name] = std::make_unique<Recorder>(inner)).get();
  });
  return r;
}

std::uint64_t total(const std::vector<Read>& reads) {
  std::uint64_t n = 0;
  for (const Read& r : reads) n += r.size;
  return n;
}

bool disjoint(std::vector<Read> reads) {
  std::sort(reads.begin(), reads.end(), [](const Read& a, const Read& b) { return a.offset < b.offset; });
  for (std::size_t i = 1; i < reads.size(); ++i)
    if (reads[i - 1].offset + reads[i - 1].size > reads[i].offset) return false;
  return true;
}

TEST(AuditStream, SmallChunksReadEachByteOnceInBoundedPieces) {
  const auto m = larger();
  const auto tensors = tgtest::make_checkpoint(m);
  const auto source = tgtest::source_files(m, tensors);
  const std::string gguf = tgtest::convert(m, tensors).build();
  tensorgate::Limits limits;
  limits.audit.chunk_bytes = 64 << 10;
  limits.audit.max_pieces = 3;  // q/k batches of three rows: many small runs
  const Recorded r = audit_recorded(source, gguf, limits);
  ASSERT_TRUE(r.run.report.faithful) << r.run.ids();
  const auto& g = r.files.at("model.gguf")->reads;
  const auto& s = r.files.at("model.safetensors")->reads;
  for (const Read& x : g) EXPECT_LE(x.size, limits.audit.chunk_bytes);
  for (const Read& x : s) EXPECT_LE(x.size, limits.audit.chunk_bytes);
  // The GGUF: in order, each tensor byte once.
  for (std::size_t i = 1; i < g.size(); ++i) EXPECT_GE(g[i].offset, g[i - 1].offset + g[i - 1].size) << i;
  EXPECT_EQ(total(g), r.run.report.bytes.gguf_tensor_bytes);
  // The source: every tensor byte once, in whatever order the GGUF needs them.
  EXPECT_TRUE(disjoint(s));
  EXPECT_EQ(total(s), r.run.report.bytes.source_tensor_bytes);
  EXPECT_EQ(r.run.report.bytes_read, total(g) + total(s));
  EXPECT_GT(g.size(), 20u);
}

TEST(AuditStream, ChunkSizeNeverChangesTheReport) {
  const auto m = larger();
  const auto tensors = tgtest::make_checkpoint(m);
  const auto source = tgtest::source_files(m, tensors, 2);
  tgtest::ConvertOptions o;
  o.permute_qk = false;
  tgtest::GgufParts parts = tgtest::convert(m, tensors, o);
  auto& down = parts.find("blk.0.ffn_down.weight")->data;
  for (std::size_t at = 1; at < down.size(); at += 99'999) down[at] = static_cast<char>(down[at] ^ 0x10);
  const std::string gguf = parts.build();
  const auto base = tgtest::audit_files(source, gguf);
  EXPECT_EQ(base.error_ids(), "AU.value-mismatch AU.value-mismatch AU.value-mismatch");
  for (const std::uint64_t chunk : {std::uint64_t{1}, std::uint64_t{64} << 10, std::uint64_t{300'000}}) {
    for (const std::uint32_t pieces : {1u, 7u, 4096u}) {
      tensorgate::Limits limits;
      limits.audit.chunk_bytes = chunk;
      limits.audit.max_pieces = pieces;
      const auto run = tgtest::audit_files(source, gguf, limits);
      ASSERT_EQ(run.report.findings.size(), base.report.findings.size());
      for (std::size_t i = 0; i < run.report.findings.size(); ++i)
        EXPECT_EQ(run.report.findings[i], base.report.findings[i]) << chunk << " " << pieces;
    }
  }
}

TEST(AuditStream, AFailedReadIsAnIoErrorNotAVerdict) {
  const auto m = larger();
  const auto tensors = tgtest::make_checkpoint(m);
  const auto source = tgtest::source_files(m, tensors);
  const std::string gguf = tgtest::convert(m, tensors).build();
  std::vector<std::unique_ptr<Recorder>> keep;
  for (const std::string failing : {"model.gguf", "model.safetensors"}) {
    const auto run = tgtest::audit_files(source, gguf, {}, [&](const std::string& name, tensorgate::ByteSource& inner) {
      keep.push_back(std::make_unique<Recorder>(inner));
      if (name == failing) keep.back()->fail_after = 3;
      return keep.back().get();
    });
    EXPECT_TRUE(run.report.io_error) << failing;
    EXPECT_FALSE(run.report.faithful);
  }
}

}  // namespace
