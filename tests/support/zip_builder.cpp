#include "zip_builder.hpp"

#include <zlib.h>

namespace tgtest {
namespace {

void le(std::string& out, std::uint64_t v, int width) {
  for (int i = 0; i < width; ++i) out += static_cast<char>((v >> (8 * i)) & 0xff);
}

std::string deflated(const std::string& data) {
  z_stream z{};
  deflateInit2(&z, 6, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, data.size()) + 16, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

std::uint64_t elements(const std::vector<std::uint64_t>& shape) {
  std::uint64_t n = 1;
  for (const auto d : shape) n *= d;
  return n;
}

std::uint32_t element_size(const std::string& storage_class) {
  if (storage_class == "DoubleStorage" || storage_class == "LongStorage") return 8;
  if (storage_class == "HalfStorage" || storage_class == "BFloat16Storage" || storage_class == "ShortStorage") return 2;
  if (storage_class == "ByteStorage" || storage_class == "CharStorage" || storage_class == "BoolStorage") return 1;
  return 4;
}

}  // namespace

std::string build_zip(const std::vector<ZipEntrySpec>& entries, const ZipOptions& options) {
  std::string out, central;
  std::uint16_t listed = 0;
  for (const ZipEntrySpec& e : entries) {
    const std::uint64_t offset = out.size();
    const std::string body = e.deflate ? deflated(e.data) : e.data;
    const std::uint32_t crc = e.crc.value_or(static_cast<std::uint32_t>(
        crc32(0, reinterpret_cast<const Bytef*>(e.data.data()), static_cast<uInt>(e.data.size()))));
    const std::uint16_t method = e.method != 0xffff ? e.method : (e.deflate ? 8 : 0);
    const std::uint16_t flags = static_cast<std::uint16_t>((e.descriptor ? 8 : 0) | e.local_flags);
    std::string extra;
    if (e.zip64) {
      le(extra, 1, 2);
      le(extra, 16, 2);
      le(extra, e.descriptor ? 0 : e.data.size(), 8);
      le(extra, e.descriptor ? 0 : body.size(), 8);
    }
    if (e.align) {
      const std::size_t before = offset + 30 + e.name.size() + extra.size() + 4;
      const std::size_t pad = (e.align - before % e.align) % e.align;
      le(extra, 0x4246, 2);  // "FB"
      le(extra, pad, 2);
      extra.append(pad, 'Z');
    }
    le(out, 0x04034b50, 4);
    le(out, e.zip64 ? 45 : 20, 2);
    le(out, flags, 2);
    le(out, method, 2);
    le(out, 0, 4);  // time, date
    le(out, e.descriptor ? 0 : crc, 4);
    le(out, e.descriptor ? 0 : (e.zip64 ? 0xffffffffu : body.size()), 4);
    le(out, e.descriptor ? 0 : (e.zip64 ? 0xffffffffu : e.data.size()), 4);
    le(out, e.name.size(), 2);
    le(out, extra.size(), 2);
    out += e.name + extra + body;
    if (e.descriptor) {
      if (e.descriptor_signature) le(out, 0x08074b50, 4);
      le(out, crc, 4);
      le(out, body.size(), e.zip64 ? 8 : 4);
      le(out, e.data.size(), e.zip64 ? 8 : 4);
    }
    if (!e.in_central) continue;
    ++listed;
    const std::string cname = e.central_name.value_or(e.name);
    const std::uint64_t csize = e.central_size.value_or(body.size()), usize = e.central_size.value_or(e.data.size());
    const std::uint64_t coff = e.central_offset.value_or(offset);
    std::string cextra;
    if (e.zip64) {
      le(cextra, 1, 2);
      le(cextra, 24, 2);
      le(cextra, usize, 8);
      le(cextra, csize, 8);
      le(cextra, coff, 8);
    }
    le(central, 0x02014b50, 4);
    le(central, e.zip64 ? 45 : 20, 2);
    le(central, e.zip64 ? 45 : 20, 2);
    le(central, static_cast<std::uint16_t>((e.descriptor ? 8 : 0) | e.central_flags), 2);
    le(central, method, 2);
    le(central, 0, 4);
    le(central, crc, 4);
    le(central, e.zip64 ? 0xffffffffu : csize, 4);
    le(central, e.zip64 ? 0xffffffffu : usize, 4);
    le(central, cname.size(), 2);
    le(central, cextra.size(), 2);
    le(central, 0, 2);  // comment
    le(central, 0, 2);  // disk
    le(central, 0, 2);  // internal attributes
    le(central, 0, 4);  // external attributes
    le(central, e.zip64 ? 0xffffffffu : coff, 4);
    central += cname + cextra;
  }
  const std::uint64_t cd_offset = out.size();
  out += central;
  const std::uint16_t count = options.entries.value_or(listed);
  if (options.zip64_end) {
    const std::uint64_t at = out.size();
    le(out, 0x06064b50, 4);
    le(out, 44, 8);
    le(out, 45, 2);
    le(out, 45, 2);
    le(out, 0, 4);
    le(out, 0, 4);
    le(out, count, 8);
    le(out, count, 8);
    le(out, central.size(), 8);
    le(out, cd_offset, 8);
    le(out, 0x07064b50, 4);
    le(out, 0, 4);
    le(out, at, 8);
    le(out, 1, 4);
  }
  le(out, 0x06054b50, 4);
  le(out, 0, 2);
  le(out, 0, 2);
  le(out, options.zip64_end ? 0xffff : count, 2);
  le(out, options.zip64_end ? 0xffff : count, 2);
  le(out, options.zip64_end ? 0xffffffffu : central.size(), 4);
  le(out, options.zip64_end ? 0xffffffffu : cd_offset, 4);
  le(out, options.comment.size(), 2);
  out += options.comment + options.trailing;
  return out;
}

std::vector<ZipEntrySpec> torch_entries(const std::vector<TorchTensor>& tensors, const std::string& prefix,
                                        const std::string& pickle) {
  std::vector<ZipEntrySpec> entries;
  entries.push_back({prefix + "/data.pkl", pickle.empty() ? state_dict_pickle(tensors) : pickle});
  entries.push_back({prefix + "/byteorder", "little"});
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    std::string data(elements(tensors[i].shape) * element_size(tensors[i].storage_class), '\0');
    for (std::size_t k = 0; k < data.size(); ++k) data[k] = static_cast<char>(k & 0xff);
    entries.push_back({prefix + "/data/" + (tensors[i].key.empty() ? std::to_string(i) : tensors[i].key), data});
  }
  entries.push_back({prefix + "/version", "3\n"});
  return entries;
}

std::string torch_archive(const std::vector<TorchTensor>& tensors, const std::string& prefix, const std::string& pickle) {
  return build_zip(torch_entries(tensors, prefix, pickle));
}

std::string npy_file(const std::string& descr, const std::vector<std::uint64_t>& shape, const std::string& data) {
  // A structure or subarray ("[('a', '|O')]", "('<f4', (2,))") is a literal, a dtype string is quoted.
  const bool literal = !descr.empty() && (descr[0] == '[' || descr[0] == '(');
  std::string dict = "{'descr': " + (literal ? descr : "'" + descr + "'") + ", 'fortran_order': False, 'shape': (";
  for (const auto d : shape) dict += std::to_string(d) + ", ";
  dict += "), }";
  while ((10 + dict.size() + 1) % 64) dict += ' ';
  dict += '\n';
  std::string out = std::string("\x93NUMPY\x01\x00", 8);
  le(out, dict.size(), 2);
  return out + dict + data;
}

}  // namespace tgtest
