// Compressed joblib files (core/src/pickle/compressed/) through the pickle validator and
// format detection. The input's first byte chooses how the rest is read (after the split
// header of fuzz_support.hpp): 0 (or anything past 6) the file as it is, a compressed file
// whose bytes the fuzzer mutates; 1-6 a pickle the harness compresses first with zlib, gzip,
// bzip2, xz, lzma-alone or LZ4, so the mutations reach the pickle inside a valid stream. Seeds:
// fuzz/make_joblib_compressed_seeds.py. Checked: the report invariants, the same report in
// any chunks (probing detection included), a small memory budget only aborting, the bounds at
// small limits (PK.decompression), and, for a pickle the harness compressed, the same rule ids
// and globals as the plain pickle.
#include <bzlib.h>
#include <lz4frame.h>
#include <lzma.h>
#include <zlib.h>

#include <cstdint>
#include <string>

#include "fuzz_support.hpp"
#include "tensorgate/detect.hpp"
#include "tensorgate/pickle.hpp"
#include "tensorgate/rules.hpp"

namespace {

std::string deflated(std::string_view in, int window_bits) {
  z_stream z{};
  if (deflateInit2(&z, 3, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY) != Z_OK) return {};
  std::string out(deflateBound(&z, in.size()) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

std::string bzipped(std::string_view in) {
  std::string out(in.size() + in.size() / 100 + 600, '\0');
  unsigned n = static_cast<unsigned>(out.size());
  if (BZ2_bzBuffToBuffCompress(out.data(), &n, const_cast<char*>(in.data()), static_cast<unsigned>(in.size()), 1, 0, 0) != BZ_OK)
    return {};
  out.resize(n);
  return out;
}

std::string lzma_coded(std::string_view in, bool xz) {
  lzma_stream s = LZMA_STREAM_INIT;
  lzma_options_lzma opt;
  lzma_lzma_preset(&opt, 1);
  if ((xz ? lzma_easy_encoder(&s, 1, LZMA_CHECK_CRC64) : lzma_alone_encoder(&s, &opt)) != LZMA_OK) return {};
  std::string out(in.size() + in.size() / 2 + 4096, '\0');
  s.next_in = reinterpret_cast<const std::uint8_t*>(in.data());
  s.avail_in = in.size();
  s.next_out = reinterpret_cast<std::uint8_t*>(out.data());
  s.avail_out = out.size();
  lzma_code(&s, LZMA_FINISH);
  out.resize(s.total_out);
  lzma_end(&s);
  return out;
}

std::string lz4_framed(std::string_view in) {
  std::string out(LZ4F_compressFrameBound(in.size(), nullptr), '\0');
  const std::size_t n = LZ4F_compressFrame(out.data(), out.size(), in.data(), in.size(), nullptr);
  if (LZ4F_isError(n)) return {};
  out.resize(n);
  return out;
}

std::string compressed(std::uint8_t mode, std::string_view in) {
  switch (mode) {
    case 1: return deflated(in, MAX_WBITS);
    case 2: return deflated(in, 16 + MAX_WBITS);
    case 3: return bzipped(in);
    case 4: return lzma_coded(in, true);
    case 5: return lzma_coded(in, false);
    case 6: return lz4_framed(in);
    default: return std::string(in);
  }
}

std::string ids(const tensorgate::Report& r) {
  std::string out;
  for (const auto& f : r.findings) out += std::string(tensorgate::rule_info(f.rule).id) + " ";
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t mode = data[0];
  const tgfuzz::Split given = tgfuzz::split_of(tgfuzz::as_text(data + 1, size - 1));
  const std::string file = compressed(mode, given.file);
  tgfuzz::Split s{{}, file};
  for (const std::size_t c : given.cuts)
    if (c > 0 && c < file.size() && (s.cuts.empty() || c > s.cuts.back())) s.cuts.push_back(c);

  const tensorgate::Report report = tensorgate::validate_pickle(file);
  tgfuzz::check_report_invariants(report);
  const auto* summary = report.summary.get<tensorgate::PickleSummary>();
  tgfuzz::require(summary != nullptr, "pickle-has-summary");
  tgfuzz::require(summary->compression.empty() || summary->compressed_bytes <= file.size(), "compressed-within-input");
  tgfuzz::check_chunking([] { return tensorgate::make_pickle_validator(); }, s);
  tgfuzz::check_chunking([] { return tensorgate::make_validator(tensorgate::FormatChoice::auto_detect, "in.joblib", {}); }, s);

  // A shared budget from none to a few MiB (the buffer and a decoder's state on both sides of
  // it): an abort or the same report, never another verdict, and every byte given back.
  const std::uint64_t capacity = s.cuts.empty() ? 0 : std::uint64_t{s.cuts.front()} << 12;
  tgfuzz::check_budget_only_aborts([](tensorgate::MemoryBudget* b) { return tensorgate::make_pickle_validator({}, b); }, s,
                                   capacity, report);

  // Small bounds: a bomb at a few KiB, a small dictionary.
  tensorgate::Limits small;
  small.pickle.bomb_floor_bytes = 4096;
  small.pickle.bomb_ratio = 4;
  small.pickle.max_inflated_bytes = 1 << 16;
  small.pickle.max_decoder_memory = 1 << 20;
  const tensorgate::Report bounded = tensorgate::validate_pickle(file, small);
  tgfuzz::check_report_invariants(bounded);
  tgfuzz::check_chunking([&] { return tensorgate::make_pickle_validator(small); }, s);
  if (const auto* b = bounded.summary.get<tensorgate::PickleSummary>())
    tgfuzz::require(b->inflated_bytes <= small.pickle.max_inflated_bytes, "inflated-within-bound");
  tgfuzz::check_writers({{"input.joblib", report, std::nullopt}, {"bounded.joblib", bounded, std::nullopt}});

  // The harness compressed a pickle: inside the stream it reads as the plain pickle does (the
  // plain one not taken for compressed itself by its first bytes).
  const std::string_view plain = given.file;
  const bool plain_is_magic = !plain.empty() && std::string_view("\x78\x1f" "BZ\x5d\xfd\x04", 7).find(plain[0]) != std::string_view::npos;
  if (mode >= 1 && mode <= 6 && !file.empty() && !plain_is_magic && !report.aborted) {
    const tensorgate::Report direct = tensorgate::validate_pickle(plain);
    if (!direct.aborted && direct.findings_dropped == 0 && report.findings_dropped == 0) {
      tgfuzz::require(ids(direct) == ids(report), "compressed-reads-as-plain");
      const auto* d = direct.summary.get<tensorgate::PickleSummary>();
      tgfuzz::require(d->globals.size() == summary->globals.size() && d->joblib_array_bytes == summary->joblib_array_bytes,
                      "compressed-summary-as-plain");
      tgfuzz::require(summary->inflated_bytes == plain.size(), "inflated-is-the-plain-size");
    }
  }
  return 0;
}
