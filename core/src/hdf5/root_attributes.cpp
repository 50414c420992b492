#include "hdf5/root_attributes.hpp"

#include <bit>
#include <charconv>
#include <cstring>

#include "common/printable.hpp"

namespace tensorgate::detail::hdf5 {
namespace {

constexpr std::size_t kPreviewNumbers = 8;
constexpr std::size_t kListedName = 256;

std::uint64_t element_bits(std::string_view e, bool big_endian) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < e.size(); ++i) {
    const std::size_t j = big_endian ? i : e.size() - 1 - i;
    v = (v << 8) | static_cast<unsigned char>(e[j]);
  }
  return v;
}

// One number as text: integers of 1 to 8 bytes, IEEE floats of 4 and 8 (shortest round trip).
std::string number_text(const Datatype& t, std::string_view e) {
  const std::uint64_t bits = element_bits(e, t.big_endian);
  char buf[40];
  std::to_chars_result r{};
  if (t.klass == 0) {
    if (t.is_signed && t.size < 8 && (bits >> (8 * t.size - 1)) & 1) {
      const std::int64_t v = static_cast<std::int64_t>(bits | (~std::uint64_t{0} << (8 * t.size)));
      r = std::to_chars(buf, buf + sizeof buf, v);
    } else if (t.is_signed) {
      r = std::to_chars(buf, buf + sizeof buf, static_cast<std::int64_t>(bits));
    } else {
      r = std::to_chars(buf, buf + sizeof buf, bits);
    }
  } else if (t.size == 4) {
    r = std::to_chars(buf, buf + sizeof buf, std::bit_cast<float>(static_cast<std::uint32_t>(bits)));
  } else {
    r = std::to_chars(buf, buf + sizeof buf, std::bit_cast<double>(bits));
  }
  return std::string(buf, r.ptr);
}

bool numeric(const Datatype& t) { return (t.klass == 0 && t.size <= 8) || (t.klass == 1 && t.ieee); }

// A fixed-length string's bytes as Python reads them: up to the first NUL (null-terminated or
// padded), or without the trailing spaces of a space-padded one.
std::string_view fixed_text(const Datatype& t, std::string_view e) {
  if (t.padding == 2) {
    while (!e.empty() && e.back() == ' ') e.remove_suffix(1);
    return e;
  }
  return e.substr(0, std::min(e.size(), e.find('\0')));
}

// A string's preview: the first element's start, as a list's first item when there are more.
std::string string_preview(const KeptAttribute& k) {
  const std::string text = printable(std::string_view(k.value).substr(0, kPreviewBytes));
  if (k.row.shape.empty()) return text;
  return "[" + text + (k.elements > 1 ? ", ...]" : "]");
}

std::string numbers_preview(const Attribute& a) {
  std::string out;
  const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(a.elements, kPreviewNumbers));
  for (std::size_t i = 0; i < n; ++i)
    out += (i ? ", " : "") + number_text(a.type, a.data.substr(i * a.type.size, a.type.size));
  if (a.shape.empty()) return out;
  return "[" + out + (a.elements > n ? ", ...]" : "]");
}

}  // namespace

bool read_whole(std::string_view name) {
  return name == "model_config" || name == "training_config" || name == "keras_version" || name == "backend";
}

KeptAttribute keep(const Attribute& a, std::uint64_t offset, std::uint32_t offset_size) {
  KeptAttribute k;
  k.name = a.name;
  k.row.name = printable(std::string_view(a.name).substr(0, kListedName));
  k.row.type = a.type.name;
  k.row.element_size = a.type.size;
  k.row.shape = a.shape;
  k.row.bytes = a.data.size();
  k.offset = offset;
  k.string = a.type.string;
  k.whole = read_whole(a.name);
  k.elements = a.elements;
  if (a.elements == 0) return k;
  const std::string_view first = a.data.substr(0, static_cast<std::size_t>(a.type.size));
  if (a.type.vlen_string) {
    const HeapRef ref = heap_ref(first, offset_size);
    if (a.shape.empty()) k.row.bytes = ref.length;  // a scalar's string; an array's heap IDs stay its bytes
    if (ref.length != 0 && ref.collection != kUndefined) k.waiting = ref;
  } else if (a.type.string) {
    const std::string_view text = fixed_text(a.type, first);
    k.value.assign(k.whole ? text : text.substr(0, kPreviewBytes));
  } else if (numeric(a.type)) {
    k.row.preview = numbers_preview(a);
  }
  if (k.string && !k.waiting) k.row.preview = string_preview(k);
  return k;
}

Fault resolve(KeptAttribute& k, std::string_view object, std::uint64_t object_offset) {
  const HeapRef ref = *k.waiting;
  k.waiting.reset();
  if (ref.length > object.size())
    return malformed("attribute " + quoted(k.name, 80) + " is a string of " + std::to_string(ref.length) +
                     " bytes in a global heap object of " + std::to_string(object.size()));
  const std::string_view text = object.substr(0, ref.length);
  k.value.assign(k.whole ? text : text.substr(0, kPreviewBytes));
  k.offset = object_offset;
  k.row.preview = string_preview(k);
  return {};
}

}  // namespace tensorgate::detail::hdf5
