#pragma once
// GG6: the vocabulary's text as llama.cpp's loader indexes it. Byte tokens must be <0xHH>, and
// every merge must name two tokens of the vocabulary. The token text is kept (bounded by
// Limits::gguf.max_vocab_bytes) so that merges can be looked up whichever key comes first; a
// merge read before the tokens is kept too and checked once they are complete. A vocabulary
// that passes the bounds leaves the merges unjudged rather than aborting the check: the bounds
// then depend on the bytes only, never on whether the file's size was known when a length that
// runs past its end was read.
#include <boost/unordered/unordered_flat_set.hpp>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/seeded_hash.hpp"
#include "gguf/arena.hpp"

namespace tensorgate::detail::gguf {

class TokenizerCheck {
 public:
  // Where a finding's first example is, and how many there are.
  struct Offender {
    std::uint64_t index = 0, pos = 0, count = 0;
    std::string text;  // cut for the message
  };

  // Bytes of one element kept: a token of at most kMaxToken bytes, a merge of two of them. Real
  // tokens are a few dozen bytes; a longer one leaves the merges unjudged.
  static constexpr std::size_t kMaxToken = 64 * 1024;
  static constexpr std::size_t kMaxKept = 2 * kMaxToken + 1;
  // An element as it arrived: its first kMaxKept bytes (all of it when it is no longer), its
  // length and its last byte.
  struct Element {
    std::string_view head;
    std::uint64_t length = 0;
    char last = 0;
  };

  // One element of tokenizer.ggml.tokens or .merges. `allocated` grows by the bytes of new
  // arena blocks and set entries (the validator charges its budget with them).
  void add_token(const Element& e, std::uint64_t index, std::uint64_t pos, std::uint64_t max_bytes, std::size_t& allocated);
  void add_merge(const Element& e, std::uint64_t index, std::uint64_t pos, std::uint64_t max_bytes, std::size_t& allocated);
  // The tokens array is complete: merges kept so far are checked, later ones as they come.
  void tokens_done();
  // The tokens array repeated or was no array of strings: nothing of it is a vocabulary.
  void drop_tokens();

  const std::optional<Offender>& bad_byte_token() const { return byte_token_; }
  const std::optional<Offender>& bad_merge() const { return merge_; }
  // The merges could not all be looked up: a token or merge past kMaxToken, or the text kept
  // past Limits::gguf.max_vocab_bytes.
  bool merges_unjudged() const { return unjudged_; }

 private:
  struct PendingMerge {
    std::string_view text;
    std::uint64_t index, pos;
  };
  void check_merge(std::string_view text, std::uint64_t index, std::uint64_t pos);
  static void note(std::optional<Offender>& slot, std::string_view text, std::uint64_t index, std::uint64_t pos);

  // Keyed per process: nobody can prepare a vocabulary whose tokens all collide.
  struct Hash {
    using is_avalanching = std::true_type;
    std::size_t operator()(std::string_view s) const { return seeded_hash(s); }
  };
  std::vector<std::unique_ptr<char[]>> blocks_;
  ArenaWriter arena_{blocks_};
  boost::unordered_flat_set<std::string_view, Hash> vocab_;
  std::uint64_t kept_ = 0;
  bool vocab_complete_ = false, dropped_ = false, unjudged_ = false;
  std::vector<PendingMerge> pending_;
  std::optional<Offender> byte_token_, merge_;
};

}  // namespace tensorgate::detail::gguf
