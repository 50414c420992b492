#pragma once
// HDF5's on-disk structures that the reader needs, decoded from whole blocks it has gathered
// (HDF5 File Format Specification 3.0): the superblock (versions 0 to 3), object header prefixes
// and messages (versions 1 and 2), attribute messages with their datatype and dataspace, the
// attribute info message, a global heap collection's objects, and Jenkins' lookup3 checksum of
// the version 2 structures. Pure functions over bytes: every field read is bounded by its block,
// and what does not fit is a Fault, malformed (KR.hdf5) or a structure not read (aborted).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tensorgate/limits.hpp"

namespace tensorgate::detail::hdf5 {

inline constexpr std::string_view kSignature{"\x89HDF\r\n\x1a\n", 8};
inline constexpr std::uint64_t kUndefined = ~std::uint64_t{0};

struct Fault {
  enum Kind : unsigned char { none, malformed, unsupported } kind = none;
  std::string message;
  explicit operator bool() const { return kind != none; }
};
inline Fault malformed(std::string m) { return Fault{Fault::malformed, std::move(m)}; }
inline Fault unsupported(std::string m) { return Fault{Fault::unsupported, std::move(m)}; }

// Little-endian fields of a block, in order; reading past its end sets `overrun` and gives 0.
class Fields {
 public:
  explicit Fields(std::string_view bytes, std::size_t at = 0) : b_(bytes), at_(at) {}
  std::uint64_t u(std::size_t n);
  // An address of `n` bytes: all ones is the undefined address.
  std::uint64_t addr(std::size_t n);
  std::string_view take(std::size_t n);
  void skip(std::size_t n) { take(n); }
  std::size_t at() const { return at_; }
  std::size_t left() const { return at_ <= b_.size() ? b_.size() - at_ : 0; }
  bool overrun() const { return overrun_; }

 private:
  std::string_view b_;
  std::size_t at_;
  bool overrun_ = false;
};

std::uint32_t lookup3(std::string_view bytes);
// Whether the last four bytes of `block` are the lookup3 checksum of the rest.
bool checksum_ok(std::string_view block);

// --- the superblock -----------------------------------------------------------------------------
inline constexpr std::size_t kSuperblockHead = 16;  // enough to know the version and the sizes
struct Superblock {
  std::uint32_t version = 0, offset_size = 0, length_size = 0;
  std::uint64_t eof = kUndefined;   // end-of-file address, relative to the superblock
  std::uint64_t root = kUndefined;  // the root group's object header, relative to the superblock
};
// The whole superblock's size from its first kSuperblockHead bytes, or a fault.
Fault superblock_size(std::string_view head, std::uint64_t& size);
Fault parse_superblock(std::string_view bytes, Superblock& out);

// --- object headers -----------------------------------------------------------------------------
inline constexpr std::size_t kHeaderHead = 16;  // a version 1 prefix; enough to size a version 2 one
struct HeaderPrefix {
  std::uint32_t version = 0, flags = 0;
  std::uint32_t messages = 0;    // version 1: messages in all chunks, as declared
  std::size_t prefix = 0;        // bytes before the first message
  std::uint64_t chunk = 0;       // bytes of the first chunk's messages (and gap)
  std::uint64_t total = 0;       // the region to read: prefix, chunk, checksum
};
// From the first kHeaderHead bytes: the prefix, or the bytes still needed to size it (`need`).
Fault header_prefix(std::string_view head, HeaderPrefix& out, std::size_t& need);

struct Message {
  std::uint32_t type = 0, flags = 0;
  std::string_view data;
  std::size_t at = 0;  // where its data starts in the chunk
};
// The messages of one chunk (`bytes` from its first message to its end, gap included).
class MessageCursor {
 public:
  MessageCursor(std::string_view bytes, std::uint32_t version, std::uint32_t header_flags)
      : b_(bytes), version_(version), flags_(header_flags) {}
  // True and the next message, false at the end of the chunk; a message that does not fit is a fault.
  bool next(Message& m, Fault& fault);

 private:
  std::string_view b_;
  std::size_t at_ = 0;
  std::uint32_t version_, flags_;
};

// --- attribute messages (type 0x0C) -------------------------------------------------------------
struct Datatype {
  std::uint32_t klass = 0, version = 0, bits = 0;
  std::uint64_t size = 0;          // of one element as stored (a vlen: its length and heap ID)
  bool big_endian = false, is_signed = false, ieee = false;
  bool string = false, vlen_string = false;
  std::uint32_t padding = 0;       // a fixed string's: 0 null-terminated, 1 null-padded, 2 space-padded
  std::string name;                // "int32", "float64", "string", "vlen-string", "compound", ...
};
struct Attribute {
  std::string name;
  Datatype type;
  std::vector<std::uint64_t> shape;  // empty: scalar
  std::uint64_t elements = 0;
  std::string_view data;             // elements x type.size bytes
  std::size_t data_at = 0;           // where the data starts in the message
};
Fault parse_attribute(std::string_view message, std::uint32_t offset_size, std::uint32_t length_size, Attribute& out);

// --- the attribute info message (type 0x15): where dense storage is, if any --------------------
Fault parse_attribute_info(std::string_view message, std::uint32_t offset_size, std::uint64_t& fractal_heap);

// --- global heap collections ---------------------------------------------------------------------
// A vlen element: its length and where its bytes are.
struct HeapRef {
  std::uint32_t length = 0;
  std::uint64_t collection = kUndefined;  // relative address
  std::uint32_t index = 0;
};
HeapRef heap_ref(std::string_view element, std::uint32_t offset_size);
inline std::size_t collection_head(std::uint32_t length_size) { return 8 + length_size; }
// The collection's size from its head, or a fault.
Fault collection_size(std::string_view head, std::uint32_t length_size, std::uint64_t& size);
// The object `index` of a whole collection, or a fault (missing, past the collection).
Fault collection_object(std::string_view collection, std::uint32_t length_size, std::uint32_t index,
                        std::string_view& object);

}  // namespace tensorgate::detail::hdf5
