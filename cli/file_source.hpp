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

// A file read from its start in order, a pipe too (--list /dev/stdin): read(2) in a loop. Not
// std::ifstream, whose iostream and locale machinery the CLI otherwise does without (a small
// check's start sets none of it up).
class SequentialFile {
 public:
  explicit SequentialFile(const std::string& path);
  SequentialFile(const SequentialFile&) = delete;
  SequentialFile& operator=(const SequentialFile&) = delete;
  ~SequentialFile();

  bool is_open() const { return fd_ >= 0; }
  // The next bytes, up to out.size(): fewer only at the end of the file; nothing when the read
  // failed (errno says why).
  std::optional<std::size_t> read(std::span<char> out);

 private:
  int fd_ = -1;
};

// A small JSON file a model directory names by a fixed name (config.json), read whole: at most
// one byte more than `limit`, so that an oversized file is refused by the parser with its size,
// never read entirely. Nothing when it cannot be opened.
std::optional<std::string> read_small_file(const std::string& path, std::uint64_t limit);

}  // namespace tensorgate::cli
