#pragma once
// The Flax push validator (docs/flax.md): a msgpack reader of its own, byte by byte through
// item headers (fx_msgpack.hpp), with an explicit stack of the maps and arrays open
// (Limits::flax.max_depth). The state tree's keys and values (fx_tree.cpp) make the dotted
// paths; an extension leaf's own msgpack, (shape, dtype, buffer), is read in place
// (fx_array.cpp): its header held, its buffer offered to the face to skip. Chunked arrays are
// folded when their map ends (fx_chunked.hpp). Made by make_flax_validator (tensorgate/flax.hpp).
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/budget_hold.hpp"
#include "common/finding_list.hpp"
#include "flax/fx_chunked.hpp"
#include "flax/fx_msgpack.hpp"
#include "tensorgate/flax.hpp"
#include "tensorgate/validator.hpp"

namespace tensorgate::detail::flax {

enum class Role : std::uint8_t { map, array, ext, nd_tuple, nd_shape, complex_pair };
// What a map's last key says its value is, for a chunked array.
enum class KeyRole : std::uint8_t { other, shape, chunks };

struct Frame {
  Role role = Role::map;
  KeyRole key_role = KeyRole::other;  // maps: of the key just read
  KeyRole own_role = KeyRole::other;  // maps: the key this map is the value of
  std::uint64_t offset = 0, count = 0, left = 0;  // a map's count and left are in items (2 an entry)
  std::size_t path_len = 0;                       // the path up to this container
  MapTally tally;                                 // maps
};

// The one extension open (extensions do not nest: flax's inner msgpack has none).
struct OpenExt {
  bool active = false, abandoned = false;
  Item item;
  std::uint64_t data_start = 0, end = 0;
  FindingList::Mark mark;  // findings before it: dropped when the file ends inside it
  std::vector<std::uint64_t> shape;
  std::string dtype;
  bool has_dtype = false, has_buffer = false;
  std::uint64_t buffer_offset = 0, buffer_bytes = 0;
  bool judged_ok = false;
};

enum class St : std::uint8_t { type, head, payload, done, stopped };
// What a payload's bytes are for.
// A key and a str leaf are looked at (UTF-8); a bin leaf, a buffer, the rest of an extension are not.
enum class Payload : std::uint8_t { key, dtype, text, leaf, buffer, foreign_key, foreign_ext, ext_rest };

class FlaxValidator final : public Validator {
 public:
  FlaxValidator(const Limits& limits, MemoryBudget* budget);

  void set_total_size(std::uint64_t size) override { total_ = size; }
  Progress feed(std::span<const std::byte> chunk) override;
  std::uint64_t bytes_wanted() const override { return reading() ? 1u << 16 : 0; }
  std::uint64_t bytes_skippable() const override;
  Progress skip(std::uint64_t count) override;
  Report snapshot() const override { return report(); }
  Report finish() override;

 private:
  bool reading() const { return st_ != St::done && st_ != St::stopped; }
  Progress progress() const;
  Report report() const;
  // The byte loop: `p` null when the bytes are skipped (only a payload that is not kept).
  void run(const unsigned char* p, std::size_t n);
  void on_type_byte(unsigned char b);
  void dispatch();
  void start_payload(const Item& it, Payload kind);
  void payload_end();

  // fx_tree.cpp: the state tree.
  void on_item(const Item& it);
  void on_key(const Item& it);
  void on_key_text();
  void non_string_key(const Item& it);  // FX.key, and the key's text in the path
  bool utf8_ok();  // the str just read is UTF-8; else FX.msgpack
  void on_value(const Item& it);
  void leaf(const Item& it);
  bool push(Role role, const Item& it, KeyRole own = KeyRole::other);
  void item_done();
  void close_map(Frame& f);
  void trailing();  // FX.msgpack: bytes after the top-level map
  // A payload (or extension) of `it` that runs past the file's known size: FX.msgpack, stopped.
  bool past_end(const Item& it, std::uint64_t end);
  void truncated(const Item& it, std::uint64_t at);
  void malformed(std::string message, std::uint64_t offset);  // FX.msgpack; the reading stops
  void abort_with(std::string limit, std::string message, AbortKind kind = AbortKind::limit);
  void record(FlaxArray a, const Dtype* dtype, bool ok, std::uint64_t elements);
  void list(FlaxArray a);  // a row of the summary, within its bounds

  // fx_array.cpp: an extension's own msgpack.
  void open_ext(const Item& it);
  void on_ext_item(const Item& it);
  void on_dtype_text();
  void on_buffer(const Item& it);
  bool close_ext();  // false when the rest of it is being skipped
  void abandon(std::string why);  // FX.array; the rest of the extension is skipped

  Limits limits_;
  FindingList findings_;
  BudgetHold memory_;
  std::optional<Aborted> aborted_;
  std::optional<std::uint64_t> total_;
  bool finished_ = false;

  std::uint64_t pos_ = 0;  // bytes seen (fed or skipped)
  St st_ = St::type;
  unsigned char type_ = 0;
  unsigned char head_[8] = {};
  int head_need_ = 0, head_got_ = 0;
  std::uint64_t item_offset_ = 0;
  Item payload_item_;
  Payload payload_ = Payload::leaf;
  std::uint64_t payload_left_ = 0;
  std::size_t keep_cap_ = 0;
  std::string text_;  // a key or dtype name being read (its first keep_cap_ bytes)
  Utf8Stream utf8_;   // a key's or a str leaf's bytes

  std::vector<Frame> stack_;
  std::string path_;
  OpenExt ext_;
  std::uint64_t value_end_ = 0;  // where the top map ended
  FlaxSummary summary_;
  std::uint64_t listed_path_bytes_ = 0;
};

// Bounds of the summary's paths (fx_record.cpp): one row's, and all rows' together.
inline constexpr std::size_t kMaxListedPath = 1024;
inline constexpr std::uint64_t kMaxListedPathBytes = 16u << 20;

}  // namespace tensorgate::detail::flax
