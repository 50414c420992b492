#pragma once
// The legacy GGML push validator (docs/ggml.md): the magic and version, the hyperparameters (an
// unversioned file placed as whisper.cpp's or llama's from them), whisper's mel filters, the
// vocabulary and the tensor records until the file ends. Fixed-size fields gather in a small
// buffer; token bytes, mel floats and tensor data are runs only counted, which the face may
// skip (bytes_skippable). Nothing grows with the file but the listed tensors' rows. Made by
// make_ggml_validator (tensorgate/ggml.hpp).
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "common/budget_hold.hpp"
#include "common/finding_list.hpp"
#include "ggml/gl_layout.hpp"
#include "tensorgate/ggml.hpp"
#include "tensorgate/validator.hpp"

namespace tensorgate::detail::ggml {

class GgmlValidator final : public Validator {
 public:
  GgmlValidator(const Limits& limits, MemoryBudget* budget);

  // The report never depends on the size: a run past the end is found when the input ends.
  void set_total_size(std::uint64_t) override {}
  Progress feed(std::span<const std::byte> chunk) override;
  std::uint64_t bytes_wanted() const override { return reading() ? 1u << 16 : 0; }
  std::uint64_t bytes_skippable() const override { return reading() && counted_run() ? run_ : 0; }
  Progress skip(std::uint64_t count) override;
  Report snapshot() const override { return report(); }
  Report finish() override;

 private:
  enum class Stage : unsigned char {
    magic, version, probe, hparams, mel_data, vocab_count, token_len, token_bytes, token_score,
    record_head, dims, name, pad, data, stopped
  };
  bool reading() const { return stage_ != Stage::stopped; }
  bool counted_run() const { return stage_ == Stage::mel_data || stage_ == Stage::token_bytes || stage_ == Stage::data; }
  Progress progress() const;
  Report report() const;

  void run(const unsigned char* p, std::size_t n);
  std::size_t step(const unsigned char* p, std::size_t n);
  void expect(Stage s, std::size_t bytes);  // a field of `bytes` gathered in buf_
  void count(Stage s, std::uint64_t bytes);  // a run only counted
  void on_field();
  void on_run_end();
  std::int32_t int_at(std::size_t i) const;

  // gl_header.cpp
  void on_magic();
  void on_version();
  void place(bool complete);  // an unversioned file, from its first 52 bytes or what there is
  void start_llama();
  void start_whisper();
  bool hparams_ok(std::string_view why, std::uint64_t at);
  void on_vocab_count(std::uint64_t n);
  void next_token();
  void on_token_len();
  std::size_t fast_tokens(const unsigned char* p, std::size_t n);  // whole entries in the chunk
  // gl_tensor.cpp
  void on_record_head();
  void on_dims();
  void on_name();
  void on_pad();
  void start_record();
  void finish_at_end();

  void fail(Rule rule, std::string message, std::uint64_t offset);  // the reading stops
  void abort_with(std::string limit, std::string message, AbortKind kind = AbortKind::limit);

  Limits limits_;
  FindingList findings_;
  BudgetHold memory_;
  std::optional<Aborted> aborted_;
  bool finished_ = false;

  Stage stage_ = Stage::magic;
  std::uint64_t bytes_seen_ = 0, pos_ = 0;  // pos_: the file offset of the next byte read
  std::array<unsigned char, 64> buf_{};
  std::size_t need_ = 0, have_ = 0;
  std::uint64_t field_at_ = 0, run_ = 0;
  std::string replay_;  // an unversioned llama file's bytes read past its header while placing it

  Kind kind_ = Kind::none;
  QuantEra era_ = QuantEra::current;
  std::uint64_t vocab_left_ = 0, vocab_read_ = 0;
  bool scores_ = false, aligned_ = false;

  // The record being read.
  std::uint32_t n_dims_ = 0, name_len_ = 0, type_id_ = 0;
  std::uint64_t record_at_ = 0;
  std::array<std::uint64_t, 4> dims_{};
  std::string name_;
  const GgmlTypeInfo* type_ = nullptr;

  GgmlSummary summary_;
};

}  // namespace tensorgate::detail::ggml
