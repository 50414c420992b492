#include "tar_builder.hpp"

#include <cstring>

namespace tgtest {
namespace {

void put_octal(std::string& block, std::size_t at, std::size_t width, std::uint64_t v) {
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + (v & 7)));
    v >>= 3;
  } while (v);
  while (digits.size() < width - 1) digits.insert(digits.begin(), '0');
  block.replace(at, width - 1, digits);
  block[at + width - 1] = '\0';
}

void put_base256(std::string& block, std::size_t at, std::size_t width, std::int64_t v) {
  const bool negative = v < 0;
  auto u = static_cast<std::uint64_t>(v);
  for (std::size_t i = width; i-- > 1;) {
    block[at + i] = static_cast<char>(u & 0xff);
    u = negative ? (u >> 8) | 0xff00000000000000ull : u >> 8;
  }
  block[at] = negative ? '\xff' : '\x80';
}

std::string le(std::uint64_t v, int width) {
  std::string out;
  for (int i = 0; i < width; ++i) out += static_cast<char>((v >> (8 * i)) & 0xff);
  return out;
}

std::string padded(std::string s) {
  if (s.size() % 512) s.append(512 - s.size() % 512, '\0');
  return s;
}

}  // namespace

void set_tar_checksum(std::string& b) {
  b.replace(148, 8, "        ");
  unsigned sum = 0;
  for (std::size_t i = 0; i < 512; ++i) sum += static_cast<unsigned char>(b[i]);
  put_octal(b, 148, 7, sum);
  b[155] = ' ';
}

std::string tar_header(const std::string& name, std::int64_t size, char type, const std::string& linkname, int checksum_delta) {
  std::string b(512, '\0');
  b.replace(0, std::min<std::size_t>(name.size(), 100), name.substr(0, 100));
  put_octal(b, 100, 8, 0644);
  put_octal(b, 108, 8, 0);
  put_octal(b, 116, 8, 0);
  if (size < 0 || size > 077777777777) put_base256(b, 124, 12, size); else put_octal(b, 124, 12, static_cast<std::uint64_t>(size));
  put_octal(b, 136, 12, 0);
  b[156] = type;
  b.replace(157, std::min<std::size_t>(linkname.size(), 100), linkname.substr(0, 100));
  b.replace(257, 6, std::string("ustar\0", 6));
  b.replace(263, 2, "00");
  b.replace(148, 8, "        ");
  unsigned sum = 0;
  for (const char c : b) sum += static_cast<unsigned char>(c);
  put_octal(b, 148, 7, sum + checksum_delta);
  b[155] = ' ';
  return b;
}

std::string pax_records(const std::vector<std::pair<std::string, std::string>>& records) {
  std::string out;
  for (const auto& [k, v] : records) {
    const std::string body = " " + k + "=" + v + "\n";
    std::size_t len = body.size() + 1;
    while (std::to_string(len).size() + body.size() != len) ++len;
    out += std::to_string(len) + body;
  }
  return out;
}

std::string build_tar(const std::vector<TarMemberSpec>& members, bool end) {
  std::string out;
  for (const TarMemberSpec& m : members) {
    if (m.gnu_long_name) {
      const std::string name = m.name + '\0';
      out += tar_header("././@LongLink", static_cast<std::int64_t>(name.size()), 'L') + padded(name);
    }
    if (!m.pax.empty()) {
      const std::string records = pax_records(m.pax);
      out += tar_header("./PaxHeaders/x", static_cast<std::int64_t>(records.size()), 'x') + padded(records);
    }
    const std::int64_t size = m.header_size.value_or(static_cast<std::int64_t>(m.data.size()));
    out += tar_header(m.gnu_long_name ? m.name.substr(0, 99) : m.name, size, m.type, m.linkname) + padded(m.data);
  }
  if (end) out.append(1024, '\0');
  return out;
}

std::string legacy_storages_member(const std::vector<std::vector<std::uint64_t>>& shapes, const std::string& payload) {
  std::string out = PickleBuilder().proto(2).integer(static_cast<std::int64_t>(shapes.size())).stop().bytes();
  out += payload;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    std::uint64_t numel = 1;
    for (const auto d : shapes[i]) numel *= d;
    // (key, location, storage class), then the element count and the elements.
    out += PickleBuilder().proto(2).str(std::to_string(i)).str("cpu").global("torch", "FloatStorage").tuple_n(3).stop().bytes();
    out += le(numel, 8);
    for (std::uint64_t k = 0; k < numel * 4; ++k) out += static_cast<char>(k & 0xff);
  }
  // The views: none.
  out += PickleBuilder().proto(2).op(']').stop().bytes();
  return out;
}

std::string legacy_tensors_member(const std::vector<std::vector<std::uint64_t>>& shapes) {
  std::string out = PickleBuilder().proto(2).integer(static_cast<std::int64_t>(shapes.size())).stop().bytes();
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    // (key, storage id, tensor type), ndim and 4 bytes, sizes, strides, the storage offset.
    out += PickleBuilder().proto(2).integer(static_cast<std::int64_t>(100 + i)).str(std::to_string(i))
               .global("torch", "FloatTensor").tuple_n(3).stop().bytes();
    out += le(shapes[i].size(), 4) + le(0, 4);
    for (const auto d : shapes[i]) out += le(d, 8);
    std::uint64_t stride = 1;
    std::vector<std::uint64_t> strides(shapes[i].size());
    for (std::size_t k = shapes[i].size(); k-- > 0;) {
      strides[k] = stride;
      stride *= shapes[i][k];
    }
    for (const auto s : strides) out += le(s, 8);
    out += le(0, 8);
  }
  return out;
}

std::string legacy_torch_tar(const std::vector<std::vector<std::uint64_t>>& shapes, const std::string& storages_payload) {
  const std::string sys_info = PickleBuilder().proto(2).op('}').stop().bytes();
  // The state: a dict of the tensors' persistent ids (their keys, as strings).
  PickleBuilder state;
  state.proto(2).op('}').mark();
  for (std::size_t i = 0; i < shapes.size(); ++i) state.str("w" + std::to_string(i)).str(std::to_string(100 + i)).op('Q');
  state.op('u').stop();
  return build_tar({{"sys_info", sys_info},
                    {"pickle", state.bytes()},
                    {"storages", legacy_storages_member(shapes, storages_payload)},
                    {"tensors", legacy_tensors_member(shapes)}});
}

}  // namespace tgtest
