#include "common/truncations.hpp"

#include "tensorgate/sha256.hpp"
#include "tensorgate/utf8.hpp"

namespace tensorgate::detail {

std::string_view Truncations::cut(std::string_view s, std::string_view field, std::string_view key) {
  if (s.size() <= limits_.max_string_bytes) return s;
  const std::string_view kept = s.substr(0, utf8_prefix(s, limits_.max_string_bytes));
  if (cuts_.size() >= limits_.max_cuts_listed) {
    ++cuts_more_;
    return kept;
  }
  const std::string_view shown_key = key.substr(0, utf8_prefix(key, limits_.max_string_bytes));
  cuts_.push_back(Cut{std::string(field), std::string(shown_key), Sha256::hex_of(s.data(), s.size()), s.size()});
  return kept;
}

void Truncations::add_cut(std::string_view field, std::string_view key, std::uint64_t bytes, std::string sha256) {
  if (cuts_.size() >= limits_.max_cuts_listed) {
    ++cuts_more_;
    return;
  }
  cuts_.push_back(Cut{std::string(field), std::string(key.substr(0, utf8_prefix(key, limits_.max_string_bytes))),
                      std::move(sha256), bytes});
}

void Truncations::write(JsonWriter& w) const {
  w.key("truncated");
  if (cuts_.empty() && cuts_more_ == 0 && tensors_omitted_ == 0 && metadata_omitted_ == 0) {
    w.null();
    return;
  }
  w.begin_object();
  w.field("max_string_bytes", limits_.max_string_bytes);
  w.key("strings");
  w.begin_array();
  for (const Cut& c : cuts_) {
    w.begin_object();
    w.field("field", c.field);
    w.key("key");
    if (c.key.empty()) w.null(); else w.string(c.key);
    w.field("bytes", c.bytes);
    w.field("sha256", c.sha256);
    w.end_object();
  }
  w.end_array();
  w.field("strings_not_listed", cuts_more_);
  w.field("metadata_omitted", metadata_omitted_);
  w.field("tensors_omitted", tensors_omitted_);
  w.end_object();
}

}  // namespace tensorgate::detail
