#include "gguf/gg6_tokenizer.hpp"

namespace tensorgate::detail::gguf {
namespace {

constexpr std::size_t kShown = 64;  // bytes of an offending token or merge a message quotes

bool hex_digit(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// A token spelled as a byte token (<0x...>) that is not exactly <0xHH>.
bool malformed_byte_token(std::string_view t) {
  if (!t.starts_with("<0x") || !t.ends_with(">") || t.size() < 4) return false;
  return t.size() != 6 || !hex_digit(t[3]) || !hex_digit(t[4]);
}

}  // namespace

void TokenizerCheck::note(std::optional<Offender>& slot, std::string_view text, std::uint64_t index, std::uint64_t pos) {
  if (!slot) slot = Offender{index, pos, 0, std::string(text.substr(0, kShown))};
  ++slot->count;
}

void TokenizerCheck::add_token(const Element& e, std::uint64_t index, std::uint64_t pos, std::uint64_t max_bytes,
                               std::size_t& allocated) {
  if (e.length > kMaxKept) {
    // No byte token, and no token a merge can be looked up by: only its ends are known.
    if (e.head.starts_with("<0x") && e.last == '>') note(byte_token_, e.head, index, pos);
    unjudged_ = true;
    return;
  }
  if (malformed_byte_token(e.head)) note(byte_token_, e.head, index, pos);
  if (dropped_ || unjudged_) return;
  if (e.length > kMaxToken || e.length > max_bytes - std::min(kept_, max_bytes)) {
    unjudged_ = true;
    vocab_.clear();
    pending_.clear();
    return;
  }
  kept_ += e.length;
  const std::size_t before = vocab_.bucket_count();
  vocab_.insert(arena_.store(e.head, allocated));
  if (vocab_.bucket_count() != before) allocated += (vocab_.bucket_count() - before) * sizeof(std::string_view);
}

void TokenizerCheck::add_merge(const Element& e, std::uint64_t index, std::uint64_t pos, std::uint64_t max_bytes,
                               std::size_t& allocated) {
  if (dropped_ || unjudged_) return;
  if (e.length > kMaxKept) {  // longer than any two tokens kept
    if (vocab_complete_) note(merge_, e.head, index, pos);
    else unjudged_ = true;
    return;
  }
  if (vocab_complete_) {
    check_merge(e.head, index, pos);
    return;
  }
  if (e.length > max_bytes - std::min(kept_, max_bytes)) {
    unjudged_ = true;
    pending_.clear();
    return;
  }
  kept_ += e.length;
  const std::size_t before = pending_.capacity();
  pending_.push_back(PendingMerge{arena_.store(e.head, allocated), index, pos});
  allocated += (pending_.capacity() - before) * sizeof(PendingMerge);
}

void TokenizerCheck::tokens_done() {
  if (dropped_ || unjudged_) return;
  vocab_complete_ = true;
  for (const PendingMerge& m : pending_) check_merge(m.text, m.index, m.pos);
  pending_.clear();
  pending_.shrink_to_fit();
}

void TokenizerCheck::drop_tokens() {
  dropped_ = true;
  vocab_complete_ = false;
  vocab_.clear();
  pending_.clear();
}

// llama.cpp splits a merge at the first space after its first byte: "a b" names "a" and "b",
// and a merge without such a space names two empty tokens.
void TokenizerCheck::check_merge(std::string_view text, std::uint64_t index, std::uint64_t pos) {
  const std::size_t space = text.size() > 1 ? text.find(' ', 1) : std::string_view::npos;
  const bool named = space != std::string_view::npos && vocab_.contains(text.substr(0, space)) &&
                     vocab_.contains(text.substr(space + 1));
  if (!named) note(merge_, text, index, pos);
}

}  // namespace tensorgate::detail::gguf
