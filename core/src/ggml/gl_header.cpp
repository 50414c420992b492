// GL.version, GL.header, GL.vocab, GL.legacy: the magic, the version, the hyperparameters (an
// unversioned file placed as whisper.cpp's or llama's), whisper's mel filters, the vocabulary.
#include "ggml/validator.hpp"

namespace tensorgate::detail::ggml {
namespace {

std::string num(std::uint64_t v) { return std::to_string(v); }

std::string hex32(std::uint32_t v) {
  std::string s = "0x";
  for (int shift = 28; shift >= 0; shift -= 4) s += "0123456789abcdef"[(v >> shift) & 0xf];
  return s;
}

}  // namespace

void GgmlValidator::on_magic() {
  const auto magic = static_cast<std::uint32_t>(int_at(0));
  if (magic == kMagicGgml) return expect(Stage::probe, kProbeInts * 4);
  if (magic == kMagicGgmf || magic == kMagicGgjt) {
    kind_ = magic == kMagicGgmf ? Kind::llama_ggmf : Kind::llama_ggjt;
    return expect(Stage::version, 4);
  }
  fail(Rule::gl_header,
       "the magic " + hex32(magic) + " is none of ggml (0x67676d6c), ggmf (0x67676d66) or ggjt (0x67676a74): not a GGML file", 0);
}

void GgmlValidator::on_version() {
  const auto v = static_cast<std::uint32_t>(int_at(0));
  const bool ggjt = kind_ == Kind::llama_ggjt;
  if (ggjt ? (v < 1 || v > 3) : v != 1) {
    kind_ = Kind::none;
    return fail(Rule::gl_version,
                std::string(ggjt ? "ggjt" : "ggmf") + " version " + num(v) + ": llama.cpp wrote " +
                    (ggjt ? "versions 1 to 3" : "version 1 only") + "; the layout of this one is unknown",
                field_at_);
  }
  summary_.version = v;
  era_ = !ggjt || v == 1 ? QuantEra::original : v == 2 ? QuantEra::v2 : QuantEra::current;
  expect(Stage::hparams, kLlamaHparams * 4);
}

// An unversioned file is whisper.cpp's when its 11 hyperparameters can be a whisper model's and
// the mel filters' row count that follows equals n_mels (llama's header never looks so: see
// whisper_implausible); else llama's when its 7 can be a llama model's; else nobody's.
void GgmlValidator::place(bool complete) {
  const std::size_t ints = have_ / 4;
  std::array<std::int32_t, kProbeInts> v{};
  for (std::size_t i = 0; i < ints; ++i) v[i] = int_at(i);
  std::string whisper_why = "the file ends before whisper's header and mel filter counts (52 bytes)";
  if (!complete) {
    whisper_why = whisper_implausible(v);
    if (whisper_why.empty()) return start_whisper();
  }
  if (ints < kLlamaHparams) return;  // the end of the input says truncated
  const std::string llama_why = llama_implausible(std::span(v).first(kLlamaHparams));
  if (!llama_why.empty()) {
    if (complete) return;  // too short to place: truncated
    return fail(Rule::gl_header,
                "an unversioned GGML file that is neither whisper.cpp's (" + whisper_why + ") nor llama's (" + llama_why +
                    "): its layout is unknown, so nothing after the magic can be checked",
                4);
  }
  kind_ = Kind::llama_ggml;
  era_ = QuantEra::original;
  // The bytes past the llama header are its vocabulary's: read again from there.
  replay_.assign(reinterpret_cast<const char*>(buf_.data()) + kLlamaHparams * 4, have_ - kLlamaHparams * 4);
  pos_ = 4 + kLlamaHparams * 4;
  have_ = kLlamaHparams * 4;
  start_llama();
}

bool GgmlValidator::hparams_ok(std::string_view why, std::uint64_t at) {
  if (why.empty()) return true;
  fail(Rule::gl_header, "hyperparameters that cannot be a " + std::string(kind_name(kind_)) + " model's: " + std::string(why), at);
  return false;
}

void GgmlValidator::start_llama() {
  std::array<std::int32_t, kLlamaHparams> v{};
  for (std::size_t i = 0; i < kLlamaHparams; ++i) v[i] = int_at(i);
  const auto names = hparam_names(kind_);
  for (std::size_t i = 0; i < kLlamaHparams; ++i) summary_.hyperparameters.push_back({std::string(names[i]), v[i]});
  summary_.kind = kind_name(kind_);
  scores_ = kind_ != Kind::llama_ggml;
  aligned_ = kind_ == Kind::llama_ggjt;
  const std::uint64_t at = kind_ == Kind::llama_ggml ? 4 : 8;
  findings_.add(Rule::gl_legacy,
                std::string(kind_name(kind_)) + (summary_.version ? " v" + num(summary_.version) : std::string()) +
                    ": a llama file of before GGUF, which no current llama.cpp loads; convert it to GGUF",
                0);
  if (!hparams_ok(llama_implausible(v), at)) return;
  if (static_cast<std::uint64_t>(v[0]) > limits_.ggml.max_vocab)
    return fail(Rule::gl_header, "n_vocab = " + num(static_cast<std::uint64_t>(v[0])) + " is past Limits::ggml.max_vocab (" +
                                     num(limits_.ggml.max_vocab) + ")",
                at);
  on_vocab_count(static_cast<std::uint64_t>(v[0]));
}

void GgmlValidator::start_whisper() {
  kind_ = Kind::whisper;
  summary_.kind = kind_name(kind_);
  const auto names = hparam_names(kind_);
  for (std::size_t i = 0; i < kWhisperHparams; ++i) summary_.hyperparameters.push_back({std::string(names[i]), int_at(i)});
  const std::int32_t qntvr = int_at(10) / 1000;
  era_ = qntvr == 0 ? QuantEra::original : qntvr == 1 ? QuantEra::v2 : QuantEra::current;
  const auto n_mel = static_cast<std::uint64_t>(int_at(11)), n_fft = static_cast<std::uint64_t>(int_at(12));
  summary_.mel_filters_n_mel = static_cast<std::uint32_t>(n_mel);
  summary_.mel_filters_n_fft = static_cast<std::uint32_t>(n_fft);
  if (n_mel * n_fft > limits_.ggml.max_mel_floats)
    return fail(Rule::gl_header, "mel filters of " + num(n_mel) + " x " + num(n_fft) + " floats, past Limits::ggml.max_mel_floats (" +
                                     num(limits_.ggml.max_mel_floats) + ")",
                48);
  count(Stage::mel_data, n_mel * n_fft * 4);
}

void GgmlValidator::on_vocab_count(std::uint64_t n) {
  if (n > limits_.ggml.max_vocab)
    return fail(Rule::gl_header, "a vocabulary of " + num(n) + " entries, past Limits::ggml.max_vocab (" +
                                     num(limits_.ggml.max_vocab) + ")",
                field_at_);
  summary_.vocab_size = n;
  vocab_left_ = n;
  next_token();
}

void GgmlValidator::next_token() {
  if (vocab_left_ == 0) return start_record();
  --vocab_left_;
  ++vocab_read_;
  expect(Stage::token_len, 4);
}

// The vocabulary's entries that lie whole in the chunk, in one loop: a 32,000-token vocabulary
// is ~100,000 fields, which the field-by-field path read at a few times the cost. Anything it
// cannot pass (a length past the limit, an entry cut by the chunk) is left to that path, which
// reports it; the bytes passed and the state are the same either way.
std::size_t GgmlValidator::fast_tokens(const unsigned char* p, std::size_t n) {
  const std::size_t score = scores_ ? 4 : 0;
  std::size_t used = 0;
  while (n - used >= 4) {
    const std::uint32_t len = static_cast<std::uint32_t>(p[used]) | static_cast<std::uint32_t>(p[used + 1]) << 8 |
                              static_cast<std::uint32_t>(p[used + 2]) << 16 | static_cast<std::uint32_t>(p[used + 3]) << 24;
    if (len > limits_.ggml.max_token_bytes || n - used - 4 < std::size_t{len} + score) break;
    used += 4 + std::size_t{len} + score;
    if (vocab_left_ == 0) {
      pos_ += used;
      start_record();
      return used;
    }
    --vocab_left_;
    ++vocab_read_;
  }
  pos_ += used;
  return used;
}

void GgmlValidator::on_token_len() {
  const auto len = static_cast<std::uint32_t>(int_at(0));
  if (len > limits_.ggml.max_token_bytes)
    return fail(Rule::gl_vocab, "vocabulary entry " + num(vocab_read_ - 1) + " is " + num(len) +
                                    " bytes long, past Limits::ggml.max_token_bytes (" + num(limits_.ggml.max_token_bytes) + ")",
                field_at_);
  count(Stage::token_bytes, len);
}

}  // namespace tensorgate::detail::ggml
