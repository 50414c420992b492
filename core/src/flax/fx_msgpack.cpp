#include "flax/fx_msgpack.hpp"

namespace tensorgate::detail::flax {
namespace {

std::uint64_t be(const unsigned char* p, int n) {
  std::uint64_t v = 0;
  for (int i = 0; i < n; ++i) v = (v << 8) | p[i];
  return v;
}

// A signed big-endian number of n bytes, as the bits of an int64.
std::uint64_t be_signed(const unsigned char* p, int n) {
  const std::uint64_t v = be(p, n);
  if (n == 8) return v;
  const std::uint64_t sign = std::uint64_t{1} << (8 * n - 1);
  return (v ^ sign) - sign;
}

}  // namespace

int head_size(unsigned char b) {
  if (b <= 0x7f || (b >= 0x80 && b <= 0xbf) || b >= 0xe0) return 0;  // fixint, fixmap, fixarray, fixstr, negative fixint
  switch (b) {
    case 0xc0: case 0xc2: case 0xc3: return 0;
    case 0xc1: return -1;
    case 0xc4: case 0xcc: case 0xd0: case 0xd9: return 1;
    case 0xc5: case 0xcd: case 0xd1: case 0xda: case 0xdc: case 0xde: return 2;
    case 0xc6: case 0xca: case 0xce: case 0xd2: case 0xdb: case 0xdd: case 0xdf: return 4;
    case 0xcb: case 0xcf: case 0xd3: return 8;
    case 0xc7: return 2;  // ext8: length, type
    case 0xc8: return 3;  // ext16
    case 0xc9: return 5;  // ext32
    default: return 1;    // fixext1..16 (0xd4-0xd8): the type
  }
}

Item decode_item(unsigned char b, const unsigned char* h, std::uint64_t offset) {
  Item it;
  it.offset = offset;
  auto set = [&](ItemKind k, std::uint64_t v) {
    it.kind = k;
    it.value = v;
    return it;
  };
  if (b <= 0x7f) return set(ItemKind::uint, b);
  if (b <= 0x8f) return set(ItemKind::map, b & 0x0f);
  if (b <= 0x9f) return set(ItemKind::array, b & 0x0f);
  if (b <= 0xbf) return set(ItemKind::str, b & 0x1f);
  if (b >= 0xe0) return set(ItemKind::sint, static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int8_t>(b))));
  switch (b) {
    case 0xc2: return set(ItemKind::boolean, 0);
    case 0xc3: return set(ItemKind::boolean, 1);
    case 0xc4: return set(ItemKind::bin, be(h, 1));
    case 0xc5: return set(ItemKind::bin, be(h, 2));
    case 0xc6: return set(ItemKind::bin, be(h, 4));
    case 0xc7: case 0xc8: case 0xc9: {
      const int n = b == 0xc7 ? 1 : b == 0xc8 ? 2 : 4;
      it.ext_type = static_cast<std::int8_t>(h[n]);
      return set(ItemKind::ext, be(h, n));
    }
    case 0xca: return set(ItemKind::float32, be(h, 4));
    case 0xcb: return set(ItemKind::float64, be(h, 8));
    case 0xcc: return set(ItemKind::uint, be(h, 1));
    case 0xcd: return set(ItemKind::uint, be(h, 2));
    case 0xce: return set(ItemKind::uint, be(h, 4));
    case 0xcf: return set(ItemKind::uint, be(h, 8));
    case 0xd0: return set(ItemKind::sint, be_signed(h, 1));
    case 0xd1: return set(ItemKind::sint, be_signed(h, 2));
    case 0xd2: return set(ItemKind::sint, be_signed(h, 4));
    case 0xd3: return set(ItemKind::sint, be_signed(h, 8));
    case 0xd4: case 0xd5: case 0xd6: case 0xd7: case 0xd8:
      it.ext_type = static_cast<std::int8_t>(h[0]);
      return set(ItemKind::ext, std::uint64_t{1} << (b - 0xd4));
    case 0xd9: return set(ItemKind::str, be(h, 1));
    case 0xda: return set(ItemKind::str, be(h, 2));
    case 0xdb: return set(ItemKind::str, be(h, 4));
    case 0xdc: return set(ItemKind::array, be(h, 2));
    case 0xdd: return set(ItemKind::array, be(h, 4));
    case 0xde: return set(ItemKind::map, be(h, 2));
    case 0xdf: return set(ItemKind::map, be(h, 4));
    default: return set(ItemKind::nil, 0);  // 0xc0
  }
}

void Utf8Stream::feed(const unsigned char* p, std::size_t n) {
  for (std::size_t i = 0; i < n && !bad_; ++i) {
    const unsigned char c = p[i];
    if (need_ > 0) {
      if (c < lo_ || c > hi_) bad_ = true;
      lo_ = 0x80;
      hi_ = 0xbf;
      --need_;
      continue;
    }
    if (c < 0x80) continue;
    if (c >= 0xc2 && c <= 0xdf) need_ = 1;
    else if (c >= 0xe0 && c <= 0xef) need_ = 2;
    else if (c >= 0xf0 && c <= 0xf4) need_ = 3;
    else bad_ = true;
    // The second byte's range rules out overlong forms, surrogates and code points past U+10FFFF.
    if (c == 0xe0) lo_ = 0xa0;
    else if (c == 0xed) hi_ = 0x9f;
    else if (c == 0xf0) lo_ = 0x90;
    else if (c == 0xf4) hi_ = 0x8f;
  }
}

const char* kind_name(ItemKind k) {
  switch (k) {
    case ItemKind::nil: return "a nil";
    case ItemKind::boolean: return "a bool";
    case ItemKind::uint: case ItemKind::sint: return "an int";
    case ItemKind::float32: case ItemKind::float64: return "a float";
    case ItemKind::str: return "a str";
    case ItemKind::bin: return "a bin";
    case ItemKind::ext: return "an ext";
    case ItemKind::array: return "an array";
    case ItemKind::map: return "a map";
  }
  return "an item";
}

std::string scalar_text(const Item& it) {
  switch (it.kind) {
    case ItemKind::nil: return "nil";
    case ItemKind::boolean: return it.value ? "true" : "false";
    case ItemKind::uint: return std::to_string(it.value);
    case ItemKind::sint: return std::to_string(static_cast<std::int64_t>(it.value));
    case ItemKind::float32: case ItemKind::float64: return "<float>";
    case ItemKind::bin: return "<bin>";
    case ItemKind::ext: return "<ext " + std::to_string(int{it.ext_type}) + ">";
    case ItemKind::str: return "<str>";
    case ItemKind::array: return "<array>";
    case ItemKind::map: return "<map>";
  }
  return "<item>";
}

}  // namespace tensorgate::detail::flax
