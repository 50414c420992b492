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

bool TokenizerCheck::add_token(std::string_view text, std::uint64_t index, std::uint64_t pos, std::uint64_t max_bytes,
                               std::size_t& allocated) {
  if (malformed_byte_token(text)) note(byte_token_, text, index, pos);
  if (dropped_) return true;
  if (text.size() > max_bytes - std::min(kept_, max_bytes)) return false;
  kept_ += text.size();
  const std::size_t before = vocab_.bucket_count();
  vocab_.insert(arena_.store(text, allocated));
  if (vocab_.bucket_count() != before) allocated += (vocab_.bucket_count() - before) * sizeof(std::string_view);
  return true;
}

bool TokenizerCheck::add_merge(std::string_view text, std::uint64_t index, std::uint64_t pos, std::uint64_t max_bytes,
                               std::size_t& allocated) {
  if (vocab_complete_) {
    check_merge(text, index, pos);
    return true;
  }
  if (dropped_) return true;
  if (text.size() > max_bytes - std::min(kept_, max_bytes)) return false;
  kept_ += text.size();
  const std::size_t before = pending_.capacity();
  pending_.push_back(PendingMerge{arena_.store(text, allocated), index, pos});
  allocated += (pending_.capacity() - before) * sizeof(PendingMerge);
  return true;
}

void TokenizerCheck::tokens_done() {
  if (dropped_) return;
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
