#pragma once
// The protobuf wire format (https://protobuf.dev/programming-guides/encoding/) read as a push
// state machine: bytes arrive in chunks of any size, "need more input" is a state, and nothing
// is held but the one field a caller asked to keep and one stack frame per open message. The
// reader knows no schema: a WireHandler (the format's reader: ONNX, SavedModel) gets each field
// and says, for every length-delimited one, whether it is a message to descend into, a value to
// keep whole, packed numbers, or data to count and skip (an initializer's raw_data is never
// held, and a caller may skip it unread: skippable()).
//
// Malformed (each a WireError with the position of its field): a varint of more than 10 bytes
// or whose 10th byte is above 1; a tag above 32 bits or with field number 0; wire types 3 and 4
// (groups) and 6, 7; a length or fixed-size field that runs past the input's known size or past
// the message that holds it; packed fixed-size values of a length that is not a multiple of
// their size; messages nested past WireLimits::max_depth (an explicit stack, never recursion);
// an input that ends inside a field or a message.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tensorgate::detail::protobuf {

enum class WireError : std::uint8_t {
#define TENSORGATE_WIRE_ERROR(id, text) id,
#include "protobuf/wire_errors.def"
#undef TENSORGATE_WIRE_ERROR
};
std::string_view wire_error_text(WireError e);

struct WireFault {
  WireError error;
  std::uint64_t pos;  // where the field at fault starts (its tag), or where the input ended
};

// The reader's bounds; a format's Limits hold them.
struct WireLimits {
  std::uint32_t max_depth = 64;                  // nested messages below the top one
  std::uint64_t max_kept_bytes = 1ull << 20;     // one field kept whole (a name, a string)
};

// What a length-delimited field is, as the handler's schema says.
enum class LenAction : std::uint8_t {
  skip,            // counted, never read (data, or a field the format does not look at)
  keep,            // handed whole to on_bytes (up to max_kept_bytes)
  message,         // a message: its fields follow, then on_message_end
  packed_varint,   // packed repeated varints: on_varint for each
  packed_fixed32,  // packed repeated fixed32/float: on_fixed32 for each
  packed_fixed64,  // packed repeated fixed64/double: on_fixed64 for each
};
struct LenChoice {
  LenAction action = LenAction::skip;
  std::uint16_t kind = 0;  // for `message`: the handler's name for its type, given back with its fields
};

// The schema side. `kind` is the type of the message that holds the field, as the handler named
// it when it chose `message` (0: the top message); `pos` is where the field's tag starts.
class WireHandler {
 public:
  virtual ~WireHandler() = default;
  virtual LenChoice on_len(std::uint16_t kind, std::uint32_t field, std::uint64_t length, std::uint64_t pos) = 0;
  virtual void on_varint(std::uint16_t kind, std::uint32_t field, std::uint64_t value, std::uint64_t pos) = 0;
  virtual void on_fixed32(std::uint16_t kind, std::uint32_t field, std::uint32_t value, std::uint64_t pos) = 0;
  virtual void on_fixed64(std::uint16_t kind, std::uint32_t field, std::uint64_t value, std::uint64_t pos) = 0;
  // A field chosen `keep`, whole.
  virtual void on_bytes(std::uint16_t kind, std::uint32_t field, std::string_view bytes, std::uint64_t pos) = 0;
  // A message chosen `message` ends; `kind` is its own type, `pos` where its bytes end.
  virtual void on_message_end(std::uint16_t kind, std::uint64_t pos) = 0;
};

class WireReader {
 public:
  WireReader(WireHandler& handler, const WireLimits& limits);

  // The input's size, when known (a file's): a length past it is refuted at once. Without it
  // the same input is refuted at finish() as truncated.
  void set_total_size(std::uint64_t size) { total_ = size; }
  // Reads a chunk. False once the input is malformed (fault()) or the handler stopped.
  bool feed(std::span<const unsigned char> chunk);
  // Bytes of a skipped field still to come: the caller may pass them to skip() instead of feed().
  std::uint64_t skippable() const { return state_ == State::skip ? left_ : 0; }
  void skip(std::uint64_t count);  // count <= skippable()
  // The input has ended: a field or message cut short is `truncated`. False when malformed.
  bool finish();
  // The handler has seen what it needs: the reader reads nothing more.
  void stop() { stopped_ = true; }

  const std::optional<WireFault>& fault() const { return fault_; }
  bool stopped() const { return stopped_; }
  std::uint64_t position() const { return pos_; }
  std::size_t depth() const { return frames_.size(); }

 private:
  enum class State : std::uint8_t { tag, varint_value, length, fixed, skip, keep, packed };
  enum class VarintStep : std::uint8_t { more, done, bad };
  struct Frame {
    std::uint64_t end;
    std::uint16_t kind;
  };

  std::size_t step(const unsigned char* p, std::size_t n);
  VarintStep varint_byte(unsigned char b);
  std::size_t take_varint(const unsigned char* p, std::size_t n);
  std::size_t take_packed(const unsigned char* p, std::size_t n);
  void on_tag(std::uint64_t tag);
  void on_length(std::uint64_t length);
  void on_fixed();
  void field_done();
  bool fits(std::uint64_t bytes);
  void fail(WireError e, std::uint64_t pos);
  std::uint64_t end() const { return frames_.empty() ? UINT64_MAX : frames_.back().end; }
  std::uint16_t kind() const { return frames_.empty() ? 0 : frames_.back().kind; }

  WireHandler& h_;
  WireLimits limits_;
  std::optional<std::uint64_t> total_;
  std::optional<WireFault> fault_;
  bool stopped_ = false;
  std::uint64_t pos_ = 0;
  std::vector<Frame> frames_;  // the open messages below the top one, innermost last

  State state_ = State::tag;
  std::uint64_t field_pos_ = 0;  // where the field being read starts (its tag)
  std::uint32_t field_ = 0;
  // A varint being read (a tag, a value, a length, a packed element), possibly across chunks.
  std::uint64_t varint_ = 0;
  unsigned varint_bytes_ = 0;
  // A fixed-size value (4 or 8 bytes) being read.
  std::uint64_t fixed_ = 0;
  unsigned fixed_size_ = 0, fixed_have_ = 0;
  // A length-delimited field: what is left of it, and what is kept or how packed values are read.
  std::uint64_t left_ = 0;
  std::string kept_;
  LenAction packed_ = LenAction::skip;
};

}  // namespace tensorgate::detail::protobuf
