#pragma once
// A compressed joblib file (joblib.dump(obj, f, compress=...)) as a push validator: the
// compressed bytes are inflated as they come, through a fixed output buffer, and the inflated
// stream goes to the pickle scanner with joblib's arrays followed, so an array's bytes are
// inflated and counted, never read as opcodes. Nothing is kept of the stream but the
// decoder's state. The report is the pickle report with the compression in its summary.
//
// The decoder is given the compressed bytes in units of 4 KiB from the stream's start, so that
// it sees the same pieces, and gives the same output, however the input was chunked.
//
// Bounds (Limits::pickle): the inflated size and ratio (PK.decompression, checked per 16 KiB
// slice of compressed input so that where the chunks end never matters), the xz and lzma
// decoders' memory (an abort). A stream that breaks or ends early is PK.compressed-stream,
// bytes after its end PK.compressed-trailing.
//
// Probing (format detection, kind/auto_validator.cpp): the first bytes named a compressor but
// inflated to nothing yet, so the file is a pickle only if its first inflated byte is PROTO;
// until then nothing is reported, and if it is not (or the stream breaks or ends first) the
// file is declined and stays what it was.
#include <cstdint>
#include <memory>
#include <string>

#include "common/budget_hold.hpp"
#include "common/finding_list.hpp"
#include "pickle/compressed/decoder.hpp"
#include "pickle/compressed/framing.hpp"
#include "pickle/scanner.hpp"
#include "tensorgate/validator.hpp"

namespace tensorgate::detail::pickle {

// The old ZF header: "ZF", 19 characters of length, then (joblib <= 0.8.4 under Python 2) a space.
inline constexpr std::size_t kZfHeader = 21;

class CompressedPickleValidator final : public Validator {
 public:
  enum class Probe : std::uint8_t { confirmed, pending, declined };
  CompressedPickleValidator(Compression c, const Limits& limits, MemoryBudget* budget, bool probing);

  void set_total_size(std::uint64_t) override {}  // nothing is decided from the size
  Progress feed(std::span<const std::byte> chunk) override;
  std::uint64_t bytes_wanted() const override;
  Progress skip(std::uint64_t count) override;
  Report snapshot() const override;
  Report finish() override;

  // Confirmed unless probing; declined once the first inflated byte is no PROTO, or (probing)
  // the stream broke or, at finish(), ended before its first byte.
  Probe probe() const { return probe_; }

 private:
  enum class St : std::uint8_t { header, stream, ended, stopped };
  void take_header(const unsigned char* p, std::size_t n);
  void take_stream(const unsigned char* p, std::size_t n);
  void flush_unit();
  void inflate_unit(const unsigned char* p, std::size_t n);
  bool take_output(std::size_t k, std::uint64_t bound, std::uint64_t slice_end);
  bool deliver(const unsigned char* d, std::size_t k);
  void stream_ended();
  void broke(const std::string& what);
  void trailing();
  void abort_with(std::string limit, std::string message, AbortKind kind);
  bool charge_decoder();
  Progress progress() const;
  Report report() const;

  Compression c_;
  PickleLimits limits_;
  FindingList findings_;
  Scanner scanner_;
  BudgetHold hold_;
  std::unique_ptr<Decoder> decoder_;
  std::unique_ptr<unsigned char[]> out_;
  std::uint64_t decoder_charged_ = 0;
  St state_ = St::stream;
  Probe probe_ = Probe::confirmed;
  std::string header_;                 // the ZF header while it comes
  std::uint64_t declared_ = 0;         // the ZF header's length
  std::uint64_t base_ = 0;             // where the compressed stream begins in the file
  std::uint64_t bytes_seen_ = 0;       // fed or skipped
  std::string unit_;                   // a unit of compressed bytes while it comes
  std::uint64_t handed_ = 0;           // compressed bytes handed to the decoder (whole units)
  std::uint64_t compressed_ = 0;       // compressed bytes the decoder used
  std::uint64_t inflated_ = 0;         // inflated bytes handed to the scanner
  bool trailing_found_ = false;
  std::optional<Aborted> aborted_;
  bool finished_ = false;
};

// What the first inflated byte of `prefix` (the file's first bytes, framed as `c`) is: format
// detection's probe.
enum class InflatedStart : std::uint8_t { proto, other, pending };
InflatedStart inflated_start(std::string_view prefix, Compression c, std::uint64_t memlimit);

}  // namespace tensorgate::detail::pickle
