#pragma once
// Builds tar bytes for tests, block by block (no Python at test time), as Python's tarfile and
// GNU tar write them: ustar headers with their checksums, GNU long names, pax records, and
// torch.load's legacy tar layout (members sys_info, pickle, storages, tensors).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pickle_builder.hpp"

namespace tgtest {

struct TarMemberSpec {
  std::string name;
  std::string data;
  char type = '0';
  std::string linkname = {};
  std::optional<std::int64_t> header_size = {};  // the header's size field when it differs from data's
  bool gnu_long_name = false;                    // the name in a GNU 'L' block before the header
  std::vector<std::pair<std::string, std::string>> pax = {};  // pax records in an 'x' block before it
};

// One 512-byte header block; `checksum_delta` spoils the checksum.
std::string tar_header(const std::string& name, std::int64_t size, char type, const std::string& linkname = {},
                       int checksum_delta = 0);
// The checksum of a header block set again after its fields were edited.
void set_tar_checksum(std::string& block);
// Pax records "%d %s=%s\n".
std::string pax_records(const std::vector<std::pair<std::string, std::string>>& records);
// The members, then two blocks of zeros (unless `end` is false).
std::string build_tar(const std::vector<TarMemberSpec>& members, bool end = true);

// torch.load's legacy tar layout for float32 tensors of these shapes (each its own storage):
// sys_info, pickle (the state dict's persistent ids), storages and tensors, as old torch.save
// wrote them. `storages_pickle`: a pickle put before the first storage's pickle (a payload).
std::string legacy_torch_tar(const std::vector<std::vector<std::uint64_t>>& shapes, const std::string& storages_payload = {});
std::string legacy_storages_member(const std::vector<std::vector<std::uint64_t>>& shapes, const std::string& payload = {});
std::string legacy_tensors_member(const std::vector<std::vector<std::uint64_t>>& shapes);

}  // namespace tgtest
