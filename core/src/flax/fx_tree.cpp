// The state tree (FX.msgpack, FX.depth, FX.key): one top-level map, its keys, values and the
// containers they open, the dotted paths, and the leaves counted.
#include "common/printable.hpp"
#include "flax/validator.hpp"
#include "tensorgate/utf8.hpp"

namespace tensorgate::detail::flax {
namespace {

std::string num(std::uint64_t v) { return std::to_string(v); }

}  // namespace

void FlaxValidator::on_item(const Item& it) {
  if (ext_.active) return on_ext_item(it);
  if (stack_.empty()) {
    if (it.kind != ItemKind::map)
      return malformed(std::string("the top level is ") + kind_name(it.kind) +
                           ", not a map: flax writes a state dict as one map",
                       it.offset);
    push(Role::map, it);
    return;
  }
  const Frame& f = stack_.back();
  if (f.role == Role::map && f.left % 2 == 0) return on_key(it);
  on_value(it);
}

void FlaxValidator::on_key(const Item& it) {
  Frame& f = stack_.back();
  f.key_role = KeyRole::other;
  if (it.kind == ItemKind::str) {
    if (past_end(it, pos_ + it.value)) return;
    return start_payload(it, Payload::key);
  }
  if (it.kind == ItemKind::map || it.kind == ItemKind::array)
    return malformed(std::string("a map key at byte ") + num(it.offset) + " is " + kind_name(it.kind) +
                         ", which msgpack's unpacker cannot hash",
                     it.offset);
  // An array as a key cannot be hashed. A bin or another extension can: its bytes are skipped,
  // and the key is judged once they have all come (a key cut off by the file's end is the
  // truncation alone, as it is when the size is known).
  if (it.kind == ItemKind::ext && it.ext_type == 1)
    return malformed("a map key at byte " + num(it.offset) + " is an array (extension 1), which msgpack's unpacker cannot hash",
                     it.offset);
  if (it.kind == ItemKind::bin || it.kind == ItemKind::ext) {
    if (past_end(it, pos_ + it.value)) return;
    return start_payload(it, Payload::foreign_key);
  }
  non_string_key(it);
  item_done();
}

void FlaxValidator::non_string_key(const Item& it) {
  Frame& f = stack_.back();
  f.tally.keys_ok = false;
  const std::string text = scalar_text(it);
  findings_.add(Rule::fx_key,
                std::string("a key at byte ") + num(it.offset) + " is " + kind_name(it.kind) + " (" + text +
                    "), not a string: flax writes string keys",
                it.offset, f.path_len ? std::string_view(path_).substr(0, f.path_len) : std::string_view(text));
  path_.resize(f.path_len);
  path_ += (path_.empty() ? "" : ".") + text;
  if (stack_.size() == 1) {
    ++summary_.top_level_keys_total;
    if (summary_.top_level_keys.size() < FlaxSummary::kMaxTopLevelKeys) summary_.top_level_keys.push_back(text);
  }
}

void FlaxValidator::on_key_text() {
  Frame& f = stack_.back();
  if (!utf8_ok()) return;
  if (payload_item_.value > keep_cap_) text_.resize(utf8_prefix(text_, text_.size()));
  if (text_ == kChunkedMarker) f.tally.marker = true;
  if (f.own_role != KeyRole::other && text_ != num((f.count - f.left) / 2)) f.tally.keys_ok = false;
  f.key_role = text_ == "shape" ? KeyRole::shape : text_ == "chunks" ? KeyRole::chunks : KeyRole::other;
  path_.resize(f.path_len);
  if (!path_.empty()) path_ += '.';
  path_ += text_;
  if (stack_.size() == 1) {
    ++summary_.top_level_keys_total;
    if (summary_.top_level_keys.size() < FlaxSummary::kMaxTopLevelKeys) summary_.top_level_keys.push_back(text_);
  }
  item_done();
}

void FlaxValidator::on_value(const Item& it) {
  Frame& f = stack_.back();
  if (f.role == Role::array) {
    path_.resize(f.path_len);
    if (!path_.empty()) path_ += '.';
    path_ += num(f.count - f.left);
  }
  const bool ndarray = it.kind == ItemKind::ext && it.ext_type == 1;
  if (f.role == Role::map && !ndarray) ++f.tally.direct.others;
  if (f.role == Role::map && f.own_role == KeyRole::shape) {  // a chunked array's shape, as far as it goes
    if (!is_int(it) || is_negative(it) || f.tally.dims.size() >= kMaxDims) f.tally.dims_ok = false;
    else if (f.tally.dims_ok) f.tally.dims.push_back(it.value);
  }
  switch (it.kind) {
    case ItemKind::map:
    case ItemKind::array: {
      const KeyRole role = f.role == Role::map ? f.key_role : KeyRole::other;
      push(it.kind == ItemKind::map ? Role::map : Role::array, it, role);
      return;
    }
    case ItemKind::ext:
      if (past_end(it, pos_ + it.value)) return;
      return open_ext(it);
    case ItemKind::str:
    case ItemKind::bin:
      if (past_end(it, pos_ + it.value)) return;
      return start_payload(it, it.kind == ItemKind::str ? Payload::text : Payload::leaf);
    default: return leaf(it);
  }
}

bool FlaxValidator::utf8_ok() {
  if (utf8_.ok()) return true;
  malformed(std::string(payload_ == Payload::key ? "the key" : "the str") + " at byte " + num(payload_item_.offset) +
                " is not UTF-8: msgpack's unpacker refuses it (flax unpacks strings as text)",
            payload_item_.offset);
  return false;
}

void FlaxValidator::leaf(const Item&) {
  ++summary_.scalars;
  item_done();
}

// A container opens; one of no entries ends at once. False when the reading stopped.
bool FlaxValidator::push(Role role, const Item& it, KeyRole own) {
  if (stack_.size() >= limits_.flax.max_depth) {
    findings_.add(Rule::fx_depth,
                  std::string(kind_name(it.kind)) + " at byte " + num(it.offset) + " opens level " +
                      num(stack_.size() + 1) + ", past Limits::flax.max_depth (" + num(limits_.flax.max_depth) + ")",
                  it.offset);
    st_ = St::stopped;
    return false;
  }
  Frame f;
  f.role = role;
  f.own_role = own;
  f.offset = it.offset;
  f.count = f.left = role == Role::map ? 2 * it.value : role == Role::ext ? 1 : it.value;
  f.path_len = path_.size();
  if (role == Role::map) {
    f.tally.listed_start = summary_.arrays.size();
    f.tally.arrays_start = summary_.arrays_total;
    f.tally.not_listed_start = summary_.arrays_not_listed;
    f.tally.scalars_start = summary_.scalars;
  }
  stack_.push_back(std::move(f));
  if (role == Role::map || role == Role::array)
    summary_.max_depth = std::max<std::uint32_t>(summary_.max_depth, static_cast<std::uint32_t>(stack_.size()));
  if (stack_.back().left == 0) {
    stack_.back().left = 1;  // ends now, as an item of one
    item_done();
  }
  return true;
}

// An item ended in the container on top: the containers it completes close, and so on outward.
void FlaxValidator::item_done() {
  while (!stack_.empty()) {
    Frame& f = stack_.back();
    if (--f.left > 0) {
      // Past the bound only once that many entries were read: a count is only a number until
      // then, and a file that claims more than it holds is found truncated at its end.
      const std::uint64_t per = f.role == Role::map ? 2 : 1;
      if ((f.role == Role::map || f.role == Role::array) && f.left % per == 0 &&
          (f.count - f.left) / per >= limits_.flax.max_container_entries)
        abort_with("flax-container-entries", std::string(f.role == Role::map ? "a map" : "an array") + " at byte " +
                                                 num(f.offset) + " of " + num(f.count / per) +
                                                 " entries, past Limits::flax.max_container_entries (" +
                                                 num(limits_.flax.max_container_entries) + "); the file is not checked");
      return;
    }
    if (f.role == Role::ext) {
      if (!close_ext()) return;
      continue;
    }
    if (f.role == Role::map) close_map(f);
    stack_.pop_back();
    if (st_ == St::stopped) return;
  }
  st_ = St::done;
  value_end_ = pos_;
  if (total_ && *total_ > pos_) trailing();  // the bytes after it: found now, as when they come
}

void FlaxValidator::trailing() {
  malformed("bytes after the top-level map, which ends at byte " + num(value_end_) +
                ": msgpack's unpacker refuses extra data",
            value_end_);
}

}  // namespace tensorgate::detail::flax
