#pragma once
// A file as the conversion audit reads it: byte ranges by pread, mostly in order.
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "tensorgate/audit.hpp"

namespace tensorgate::cli {

class FileSource final : public ByteSource {
 public:
  FileSource() = default;
  FileSource(const FileSource&) = delete;
  FileSource& operator=(const FileSource&) = delete;
  ~FileSource() override;

  // False unless `path` is a regular file that could be opened.
  bool open(const std::string& path);
  // The whole range, or false (an error, or the file ended: it changed since it was validated).
  bool read(std::uint64_t offset, std::span<std::byte> out) override;
  std::uint64_t size() const { return size_; }

 private:
  int fd_ = -1;
  std::uint64_t size_ = 0;
};

// A small JSON file a model directory names by a fixed name (config.json), read whole: at most
// one byte more than `limit`, so that an oversized file is refused by the parser with its size,
// never read entirely. Nothing when it cannot be opened.
std::optional<std::string> read_small_file(const std::string& path, std::uint64_t limit);

}  // namespace tensorgate::cli
