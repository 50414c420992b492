// STC1-STC4: which canonical-writer rules a valid file's bytes break.
#include "safetensors/stc_canonical.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "safetensors/stc2_canonical_json.hpp"
#include "common/printable.hpp"
#include "safetensors/st5_tiling.hpp"

namespace tensorgate::detail {
namespace {

// How many leading bytes of `a` and `b` agree. memcmp runs a block at a time; GCC's std::mismatch
// is a byte loop, and was most of a small header's canonical check: a block is searched
// byte by byte only once memcmp has found it differs.
std::size_t common_prefix(const char* a, const char* b, std::size_t n) {
  if (std::memcmp(a, b, n) == 0) return n;
  constexpr std::size_t kBlock = 64;
  std::size_t at = 0;
  while (n - at > kBlock && std::memcmp(a + at, b + at, kBlock) == 0) at += kBlock;
  while (a[at] == b[at]) ++at;  // stops inside the block memcmp found different
  return at;
}

// Compares generated text against the header, piece by piece; remembers the first difference.
class TextMatcher {
 public:
  // The buffer is sized once for the first piece (an entry may run past it by its own length):
  // grown by doubling, a small header's check touched twice the pages it needs.
  explicit TextMatcher(std::string_view expected) : expected_(expected) {
    buf_.reserve(std::min(expected.size(), kPiece) + kSlack);
  }
  std::string& buffer() { return buf_; }
  void flush() {
    if (!mismatch_ && !buf_.empty()) {
      const std::size_t n = std::min(buf_.size(), expected_.size() - pos_);
      const std::size_t same = common_prefix(buf_.data(), expected_.data() + pos_, n);
      if (same != n || n != buf_.size()) mismatch_ = pos_ + same;
      pos_ += n;
    }
    buf_.clear();
  }
  void maybe_flush() {
    if (buf_.size() >= kPiece) flush();
  }
  // A JSON string as the canonical writer escapes it, compared a piece at a time: a 100 MB
  // metadata value is never copied whole.
  void string(std::string_view s) {
    buf_ += '"';
    for (std::size_t at = 0; at < s.size(); at += kPiece) {
      const std::string_view piece = s.substr(at, kPiece);
      std::size_t run = 0;
      for (std::size_t i = 0; i < piece.size(); ++i) {
        const auto c = static_cast<unsigned char>(piece[i]);
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        buf_.append(piece.data() + run, i - run);
        run = i + 1;
        append_escape(buf_, c);
      }
      buf_.append(piece.data() + run, piece.size() - run);
      maybe_flush();
    }
    buf_ += '"';
  }
  // The first differing header position, or nothing when the text matched all of `expected`.
  std::optional<std::size_t> finish() {
    flush();
    if (!mismatch_ && pos_ != expected_.size()) mismatch_ = pos_;
    return mismatch_;
  }

 private:
  static constexpr std::size_t kPiece = 1 << 16;
  static constexpr std::size_t kSlack = 1 << 10;
  std::string_view expected_;
  std::string buf_;
  std::size_t pos_ = 0;
  std::optional<std::size_t> mismatch_;
};

std::optional<std::size_t> header_text_difference(const TensorTable& t, std::uint64_t object_end) {
  TextMatcher m(t.header_text().substr(0, object_end));
  std::string& out = m.buffer();
  out += '{';
  if (t.has_metadata()) {
    out += "\"__metadata__\":{";
    for (std::size_t i = 0; i < t.metadata_size(); ++i) {
      if (i) out += ',';
      const auto [key, value] = t.metadata(i);
      m.string(key);
      out += ':';
      m.string(value);
    }
    out += '}';
    if (t.size()) out += ',';
  }
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (i) out += ',';
    const TensorView v = t[i];
    append_tensor_entry(out, v.name, v.dtype, v.shape, v.begin, v.end);
    m.maybe_flush();
  }
  out += '}';
  return m.finish();
}

bool metadata_canonical(const TensorTable& t) {
  if (!t.has_metadata()) return true;
  if (t.metadata_size() == 0) return false;
  for (std::size_t i = 1; i < t.metadata_size(); ++i)
    if (!(t.metadata(i - 1).first < t.metadata(i).first)) return false;
  return true;
}

}  // namespace

bool check_canonical(const TensorTable& t, std::uint64_t object_end, FindingList& findings) {
  bool canonical = true;
  const auto order = t.data_order();
  for (std::size_t i = 1; i < order.size(); ++i) {
    if (!canonical_less(t, order[i - 1], order[i])) {
      const auto& r = t.record(order[i]);
      findings.add(Rule::stc1_order,
                   "the data is not laid out by (dtype, name): this tensor follows " +
                       quoted(t.str(t.record(order[i - 1]).name)),
                   8 + r.key_pos, t.str(r.name));
      canonical = false;
      break;
    }
  }
  std::optional<std::size_t> text_diff;
  for (std::uint32_t i = 1; i < t.size() && !text_diff; ++i)
    if (!canonical_less(t, i - 1, i)) text_diff = t.record(i).key_pos;
  if (!text_diff) text_diff = header_text_difference(t, object_end);
  if (text_diff) {
    findings.add(Rule::stc2_header_text,
                 "the header text differs from the canonical writer's from header byte " +
                     std::to_string(*text_diff),
                 8 + *text_diff);
    canonical = false;
  }
  if (!metadata_canonical(t)) {
    findings.add(Rule::stc3_metadata, t.metadata_size() == 0
                                          ? "an empty \"__metadata__\" is written, not omitted"
                                          : "metadata keys are not in ascending byte order");
    canonical = false;
  }
  const std::string_view padding = t.header_text().substr(object_end);
  if (padding.size() != canonical_padding(object_end) ||
      padding.find_first_not_of(' ') != std::string_view::npos) {
    findings.add(Rule::stc4_padding,
                 std::to_string(padding.size()) + " bytes of padding after the JSON, the writer pads " +
                     std::to_string(canonical_padding(object_end)) + " spaces",
                 8 + object_end);
    canonical = false;
  }
  return canonical;
}

}  // namespace tensorgate::detail
