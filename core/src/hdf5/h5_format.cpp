// The superblock, object header prefixes, their messages and the lookup3 checksum
// (h5_format.hpp). Attribute messages and the global heap are in h5_attribute.cpp.
#include "hdf5/h5_format.hpp"

namespace tensorgate::detail::hdf5 {
namespace {

std::string num(std::uint64_t v) { return std::to_string(v); }

bool size_ok(std::uint32_t n) { return n == 2 || n == 4 || n == 8; }

// The sizes of offsets and lengths: 2, 4 and 8 are read; 16, which the format allows and no
// writer uses, is a structure not read; anything else is malformed.
Fault sizes_fault(std::uint32_t offsets, std::uint32_t lengths) {
  for (const auto& [what, n] : {std::pair<const char*, std::uint32_t>{"offsets", offsets}, {"lengths", lengths}}) {
    if (size_ok(n)) continue;
    if (n == 16) return unsupported("the superblock's size of " + std::string(what) + " is 16 bytes, which this reader does not read");
    return malformed("the superblock's size of " + std::string(what) + " is " + num(n) + " (2, 4, 8 or 16)");
  }
  return {};
}

std::uint32_t rot(std::uint32_t x, int k) { return (x << k) | (x >> (32 - k)); }

}  // namespace

std::uint64_t Fields::u(std::size_t n) {
  const std::string_view s = take(n);
  std::uint64_t v = 0;
  for (std::size_t i = s.size(); i-- > 0;) v = (v << 8) | static_cast<unsigned char>(s[i]);
  return v;
}

std::uint64_t Fields::addr(std::size_t n) {
  const std::uint64_t v = u(n);
  const std::uint64_t ones = n >= 8 ? kUndefined : (std::uint64_t{1} << (8 * n)) - 1;
  return v == ones ? kUndefined : v;
}

std::string_view Fields::take(std::size_t n) {
  if (n > left()) {
    overrun_ = true;
    at_ = b_.size();
    return {};
  }
  const std::string_view s = b_.substr(at_, n);
  at_ += n;
  return s;
}

// Bob Jenkins' lookup3 hashlittle() with an initial value of 0, byte by byte, as HDF5's
// H5_checksum_lookup3 computes it.
std::uint32_t lookup3(std::string_view bytes) {
  const auto* k = reinterpret_cast<const unsigned char*>(bytes.data());
  std::size_t length = bytes.size();
  std::uint32_t a, b, c;
  a = b = c = 0xdeadbeefu + static_cast<std::uint32_t>(length);
  const auto word = [&](std::size_t i) {
    return std::uint32_t{k[i]} | std::uint32_t{k[i + 1]} << 8 | std::uint32_t{k[i + 2]} << 16 | std::uint32_t{k[i + 3]} << 24;
  };
  while (length > 12) {
    a += word(0), b += word(4), c += word(8);
    a -= c, a ^= rot(c, 4), c += b;
    b -= a, b ^= rot(a, 6), a += c;
    c -= b, c ^= rot(b, 8), b += a;
    a -= c, a ^= rot(c, 16), c += b;
    b -= a, b ^= rot(a, 19), a += c;
    c -= b, c ^= rot(b, 4), b += a;
    length -= 12, k += 12;
  }
  if (length == 0) return c;
  std::uint32_t t[3] = {0, 0, 0};
  for (std::size_t i = 0; i < length; ++i) t[i / 4] += std::uint32_t{k[i]} << (8 * (i % 4));
  a += t[0], b += t[1], c += t[2];
  c ^= b, c -= rot(b, 14);
  a ^= c, a -= rot(c, 11);
  b ^= a, b -= rot(a, 25);
  c ^= b, c -= rot(b, 16);
  a ^= c, a -= rot(c, 4);
  b ^= a, b -= rot(a, 14);
  c ^= b, c -= rot(b, 24);
  return c;
}

bool checksum_ok(std::string_view block) {
  if (block.size() < 4) return false;
  Fields f(block, block.size() - 4);
  return f.u(4) == lookup3(block.substr(0, block.size() - 4));
}

Fault superblock_size(std::string_view head, std::uint64_t& size) {
  const auto version = static_cast<unsigned char>(head[8]);
  if (version > 3) return malformed("superblock version " + num(version) + " (0 to 3)");
  if (version <= 1) {
    const auto o = static_cast<unsigned char>(head[13]), l = static_cast<unsigned char>(head[14]);
    if (Fault f = sizes_fault(o, l)) return f;
    size = (version == 1 ? 28 : 24) + 6u * o + 24;
  } else {
    const auto o = static_cast<unsigned char>(head[9]), l = static_cast<unsigned char>(head[10]);
    if (Fault f = sizes_fault(o, l)) return f;
    size = 12 + 4u * o + 4;
  }
  return {};
}

Fault parse_superblock(std::string_view bytes, Superblock& out) {
  Fields f(bytes, 8);
  out.version = static_cast<std::uint32_t>(f.u(1));
  if (out.version <= 1) {
    const std::uint64_t free_space = f.u(1), root_table = f.u(1);
    f.skip(1);
    const std::uint64_t shared = f.u(1);
    out.offset_size = static_cast<std::uint32_t>(f.u(1));
    out.length_size = static_cast<std::uint32_t>(f.u(1));
    f.skip(1);
    const std::uint64_t leaf_k = f.u(2), internal_k = f.u(2);
    f.skip(4);  // file consistency flags
    if (out.version == 1) f.skip(4);  // indexed storage K, reserved
    if (free_space != 0 || root_table != 0 || shared != 0)
      return malformed("the superblock's free-space, root symbol table or shared header version is not 0");
    if (leaf_k == 0 || internal_k == 0) return malformed("the superblock's group B-tree K is 0");
    const std::uint32_t o = out.offset_size;
    f.skip(o);  // base address: the superblock's own, which is where it was found
    f.skip(o);  // free-space info address
    out.eof = f.addr(o);
    f.skip(o);  // driver information block
    f.skip(o);  // the root symbol table entry: link name offset
    out.root = f.addr(o);
  } else {
    out.offset_size = static_cast<std::uint32_t>(f.u(1));
    out.length_size = static_cast<std::uint32_t>(f.u(1));
    f.skip(1);  // file consistency flags
    const std::uint32_t o = out.offset_size;
    f.skip(o);  // base address
    f.skip(o);  // superblock extension: file space and shared message settings, not read
    out.eof = f.addr(o);
    out.root = f.addr(o);
    if (!checksum_ok(bytes)) return malformed("the superblock's checksum does not match its bytes");
  }
  if (f.overrun()) return malformed("the superblock is shorter than its fields");
  if (out.root == kUndefined) return malformed("the superblock gives no address for the root group's object header");
  if (out.eof == kUndefined) return malformed("the superblock gives no end-of-file address");
  return {};
}

Fault header_prefix(std::string_view head, HeaderPrefix& out, std::size_t& need) {
  need = 0;
  Fields f(head);
  if (head.substr(0, 4) == "OHDR") {
    f.skip(4);
    out.version = static_cast<std::uint32_t>(f.u(1));
    out.flags = static_cast<std::uint32_t>(f.u(1));
    if (out.version != 2) return malformed("an object header with signature OHDR has version " + num(out.version) + " (2)");
    if (out.flags & 0xc0) return malformed("an object header's flags set reserved bits");
    const std::size_t width = std::size_t{1} << (out.flags & 3);
    out.prefix = 6 + ((out.flags & 0x20) ? 16 : 0) + ((out.flags & 0x10) ? 4 : 0) + width;
    if (head.size() < out.prefix) {
      need = out.prefix;
      return {};
    }
    Fields size(head, out.prefix - width);
    out.chunk = size.u(width);
    if (out.chunk > (std::uint64_t{1} << 62)) return malformed("an object header's first chunk claims " + num(out.chunk) + " bytes");
    out.total = out.prefix + out.chunk + 4;
    return {};
  }
  out.version = static_cast<std::uint32_t>(f.u(1));
  if (out.version != 1) return malformed("an object header of version " + num(out.version) + " (1, or OHDR and 2)");
  f.skip(1);
  out.messages = static_cast<std::uint32_t>(f.u(2));
  f.skip(4);  // reference count
  out.chunk = f.u(4);
  out.prefix = 16;
  out.total = 16 + out.chunk;
  return {};
}

bool MessageCursor::next(Message& m, Fault& fault) {
  const std::size_t head = version_ == 1 ? 8 : 4 + ((flags_ & 0x04) ? 2 : 0);
  if (b_.size() - at_ < head) return false;  // the end, or a gap too short for a message
  Fields f(b_, at_);
  if (version_ == 1) {
    m.type = static_cast<std::uint32_t>(f.u(2));
    const std::uint64_t size = f.u(2);
    m.flags = static_cast<std::uint32_t>(f.u(1));
    f.skip(3);
    m.at = f.at();
    if (size > f.left()) {
      fault = malformed("a message of type " + num(m.type) + " claims " + num(size) + " bytes, past its chunk's end");
      return false;
    }
    m.data = f.take(size);
  } else {
    m.type = static_cast<std::uint32_t>(f.u(1));
    const std::uint64_t size = f.u(2);
    m.flags = static_cast<std::uint32_t>(f.u(1));
    if (flags_ & 0x04) f.skip(2);  // creation order
    m.at = f.at();
    if (size > f.left()) {
      fault = malformed("a message of type " + num(m.type) + " claims " + num(size) + " bytes, past its chunk's end");
      return false;
    }
    m.data = f.take(size);
  }
  at_ = f.at();
  return true;
}

}  // namespace tensorgate::detail::hdf5
