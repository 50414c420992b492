// Attribute messages (type 0x0C: name, datatype, dataspace, value), the attribute info message
// (0x15) and global heap collections (h5_format.hpp).
#include "hdf5/h5_format.hpp"

namespace tensorgate::detail::hdf5 {
namespace {

constexpr std::uint32_t kMaxRank = 32;  // H5S_MAX_RANK

std::string num(std::uint64_t v) { return std::to_string(v); }
std::uint64_t align8(std::uint64_t n) { return (n + 7) & ~std::uint64_t{7}; }

constexpr const char* kClassNames[] = {"integer", "float",     "time", "string", "bitfield", "opaque",
                                       "compound", "reference", "enum", "vlen",   "array"};

// A datatype message: its class, size and what the value's text needs. Only the first 8 bytes
// (class, bit fields, size) and a float's or a vlen's properties are read; a compound's or an
// enum's members are not needed to name it.
Fault parse_datatype(std::string_view bytes, std::uint32_t offset_size, Datatype& t) {
  Fields f(bytes);
  const std::uint64_t head = f.u(1);
  t.klass = static_cast<std::uint32_t>(head & 0x0f);
  t.version = static_cast<std::uint32_t>(head >> 4);
  t.bits = static_cast<std::uint32_t>(f.u(3));
  t.size = f.u(4);
  if (f.overrun()) return malformed("a datatype shorter than its 8-byte head");
  if (t.version < 1 || t.version > 5) return malformed("a datatype of version " + num(t.version) + " (1 to 5)");
  if (t.klass > 10) return malformed("a datatype of class " + num(t.klass) + " (0 to 10)");
  t.name = kClassNames[t.klass];
  t.big_endian = t.bits & 1;
  switch (t.klass) {
    case 0:  // fixed-point
      t.is_signed = t.bits & 0x08;
      if (t.size == 1 || t.size == 2 || t.size == 4 || t.size == 8)
        t.name = std::string(t.is_signed ? "int" : "uint") + num(8 * t.size);
      break;
    case 1: {  // floating-point: IEEE when its fields are where IEEE's are
      f.skip(2);
      const std::uint64_t precision = f.u(2), exp_at = f.u(1), exp_size = f.u(1), mant_at = f.u(1), mant_size = f.u(1);
      if (f.overrun()) return malformed("a floating-point datatype shorter than its properties");
      t.big_endian = (t.bits & 0x41) == 0x01;
      const bool vax = t.bits & 0x40;
      const bool f32 = t.size == 4 && precision == 32 && exp_at == 23 && exp_size == 8 && mant_at == 0 && mant_size == 23;
      const bool f64 = t.size == 8 && precision == 64 && exp_at == 52 && exp_size == 11 && mant_at == 0 && mant_size == 52;
      t.ieee = !vax && (f32 || f64);
      if (t.size == 2 || t.size == 4 || t.size == 8) t.name = "float" + num(8 * t.size);
      break;
    }
    case 3:  // fixed-length string
      t.string = true;
      t.padding = t.bits & 0x0f;
      t.name = "string";
      break;
    case 9: {  // variable-length: a sequence, or a string; stored as a length and a heap ID
      t.vlen_string = (t.bits & 0x0f) == 1;
      t.string = t.vlen_string;
      t.name = t.vlen_string ? "vlen-string" : "vlen";
      t.size = 4 + offset_size + 4;
      break;
    }
    default: break;
  }
  if (t.size == 0) return malformed("a datatype of class " + std::string(kClassNames[t.klass]) + " and size 0");
  return {};
}

// A dataspace message: scalar, simple (its dimensions) or null.
Fault parse_dataspace(std::string_view bytes, std::uint32_t length_size, Attribute& a) {
  Fields f(bytes);
  const std::uint64_t version = f.u(1), rank = f.u(1), flags = f.u(1);
  bool null = false;
  if (version == 1) {
    f.skip(5);
  } else if (version == 2) {
    const std::uint64_t type = f.u(1);
    if (type > 2) return malformed("a dataspace of type " + num(type) + " (0 scalar, 1 simple, 2 null)");
    null = type == 2;
  } else {
    return malformed("a dataspace of version " + num(version) + " (1 or 2)");
  }
  if (rank > kMaxRank) return malformed("a dataspace of rank " + num(rank) + " (at most 32)");
  a.elements = null ? 0 : 1;
  for (std::uint64_t i = 0; i < rank; ++i) {
    const std::uint64_t d = f.u(length_size);
    a.shape.push_back(d);
    if (null) continue;
    if (d != 0 && a.elements > kUndefined / d) return malformed("a dataspace whose dimensions' product overflows");
    a.elements *= d;
  }
  if (flags & 1) f.skip(rank * length_size);  // maximum dimensions
  if (f.overrun()) return malformed("a dataspace shorter than its " + num(rank) + " dimensions");
  return {};
}

}  // namespace

Fault parse_attribute(std::string_view message, std::uint32_t offset_size, std::uint32_t length_size, Attribute& out) {
  Fields f(message);
  const std::uint64_t version = f.u(1), flags = f.u(1);
  const std::uint64_t name_size = f.u(2), type_size = f.u(2), space_size = f.u(2);
  if (version < 1 || version > 3) return malformed("an attribute message of version " + num(version) + " (1 to 3)");
  if (version == 3) f.skip(1);  // the name's character set
  if (f.overrun()) return malformed("an attribute message shorter than its head");
  if (flags & 0x03) return unsupported("an attribute whose datatype or dataspace is shared (stored elsewhere in the file), which this reader does not follow");
  const auto part = [&](std::uint64_t n) { return f.take(version == 1 ? align8(n) : n).substr(0, n); };
  const std::string_view name = part(name_size), type = part(type_size), space = part(space_size);
  if (f.overrun()) return malformed("an attribute message shorter than its name, datatype and dataspace");
  // The name's size counts its terminating NUL, which is its only NUL (as the library checks).
  if (name.empty() || name.back() != '\0' || name.find('\0') != name.size() - 1)
    return malformed("an attribute's name is not one NUL-terminated string of its stated size");
  out.name.assign(name.substr(0, name.size() - 1));
  if (Fault e = parse_datatype(type, offset_size, out.type)) return e;
  if (Fault e = parse_dataspace(space, length_size, out)) return e;
  if (out.elements > f.left() / out.type.size)
    return malformed("the value of " + num(out.elements) + " elements of " + num(out.type.size) +
                     " bytes runs past its attribute message");
  out.data_at = f.at();
  out.data = f.take(out.elements * out.type.size);
  return {};
}

Fault parse_attribute_info(std::string_view message, std::uint32_t offset_size, std::uint64_t& fractal_heap) {
  Fields f(message);
  const std::uint64_t version = f.u(1), flags = f.u(1);
  if (version != 0) return malformed("an attribute info message of version " + num(version) + " (0)");
  if (flags & ~std::uint64_t{3}) return malformed("an attribute info message's flags set reserved bits");
  if (flags & 1) f.skip(2);  // maximum creation index
  fractal_heap = f.addr(offset_size);
  if (f.overrun()) return malformed("an attribute info message shorter than its fields");
  return {};
}

HeapRef heap_ref(std::string_view element, std::uint32_t offset_size) {
  Fields f(element);
  HeapRef r;
  r.length = static_cast<std::uint32_t>(f.u(4));
  r.collection = f.addr(offset_size);
  r.index = static_cast<std::uint32_t>(f.u(4));
  return r;
}

Fault collection_size(std::string_view head, std::uint32_t length_size, std::uint64_t& size) {
  Fields f(head);
  if (f.take(4) != "GCOL") return malformed("a global heap collection without its signature GCOL");
  const std::uint64_t version = f.u(1);
  if (version != 1) return malformed("a global heap collection of version " + num(version) + " (1)");
  f.skip(3);
  size = f.u(length_size);
  if (size < collection_head(length_size)) return malformed("a global heap collection of " + num(size) + " bytes, less than its head");
  return {};
}

Fault collection_object(std::string_view collection, std::uint32_t length_size, std::uint32_t index, std::string_view& object) {
  Fields f(collection, collection_head(length_size));
  while (f.left() >= 8u + length_size) {
    const std::uint64_t at = f.at();
    const std::uint64_t i = f.u(2);
    f.skip(6);  // reference count, reserved
    const std::uint64_t size = f.u(length_size);
    if (i == 0) break;  // the free space: no object after it
    if (size > f.left()) return malformed("global heap object " + num(i) + " at byte " + num(at) + " of its collection runs past it");
    const std::string_view data = f.take(size);
    if (i == index) {
      object = data;
      return {};
    }
    f.skip(std::min<std::uint64_t>(align8(size) - size, f.left()));
  }
  return malformed("the global heap collection holds no object " + num(index));
}

}  // namespace tensorgate::detail::hdf5
