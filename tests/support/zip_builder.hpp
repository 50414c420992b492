#pragma once
// Builds zip bytes for tests, record by record (no Python at test time): PyTorch archives as
// torch.save writes them (stored entries, bit 3 set, sizes in a data descriptor, FB padding to
// 64 bytes), deflated entries, zip64, and every way of twisting one (names, flags, sizes and
// offsets that differ between a local header and its central-directory entry).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pickle_builder.hpp"

namespace tgtest {

struct ZipEntrySpec {
  std::string name;
  std::string data;                 // the uncompressed bytes
  bool deflate = false;
  bool descriptor = true;           // bit 3: zero sizes in the local header, a data descriptor after the data
  bool descriptor_signature = true;
  bool zip64 = false;               // a zip64 extra field and a 24-byte descriptor
  unsigned align = 64;              // FB padding so the data starts on this boundary (0: none)
  std::uint16_t method = 0xffff;    // the method written (default: 0 stored or 8 deflate)
  std::uint16_t local_flags = 0, central_flags = 0;  // flags added
  std::optional<std::string> central_name = {};   // the central directory's name when it differs
  std::optional<std::uint64_t> central_size = {}; // the central directory's sizes when they differ
  std::optional<std::uint64_t> central_offset = {};
  std::optional<std::uint32_t> crc = {};          // the CRC-32 recorded (default: the real one)
  bool in_central = true;
};

struct ZipOptions {
  std::string comment;
  std::string trailing;                       // after the end record
  std::optional<std::uint16_t> entries;       // the end record's count when it differs
  bool zip64_end = false;                     // write a zip64 end record and locator
};

std::string build_zip(const std::vector<ZipEntrySpec>& entries, const ZipOptions& options = {});

// A torch.save archive of `tensors` (random-free data: byte i of a storage is i & 0xff):
// <prefix>/data.pkl (state_dict_pickle, or `pickle` when given), byteorder, data/<key>,
// version.
std::string torch_archive(const std::vector<TorchTensor>& tensors, const std::string& prefix = "archive",
                          const std::string& pickle = {});
std::vector<ZipEntrySpec> torch_entries(const std::vector<TorchTensor>& tensors, const std::string& prefix = "archive",
                                        const std::string& pickle = {});

// A .npy file: version 1.0, the header dict padded to 64 bytes, then `data`.
std::string npy_file(const std::string& descr, const std::vector<std::uint64_t>& shape, const std::string& data);

}  // namespace tgtest
