#include "file_source.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace tensorgate::cli {

FileSource::~FileSource() {
  if (fd_ >= 0) ::close(fd_);
}

bool FileSource::open(const std::string& path) {
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st {};
  if (fd_ < 0 || ::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) return false;
  size_ = static_cast<std::uint64_t>(st.st_size);
  ::posix_fadvise(fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
  return true;
}

SequentialFile::SequentialFile(const std::string& path) : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {}

SequentialFile::~SequentialFile() {
  if (fd_ >= 0) ::close(fd_);
}

std::optional<std::size_t> SequentialFile::read(std::span<char> out) {
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t n = ::read(fd_, out.data() + done, out.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return std::nullopt;
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
  }
  return done;
}

std::optional<std::string> read_small_file(const std::string& path, std::uint64_t limit) {
  FileSource f;
  if (!f.open(path)) return std::nullopt;
  std::string text(static_cast<std::size_t>(std::min(f.size(), limit + 1)), '\0');
  if (!f.read(0, std::as_writable_bytes(std::span(text.data(), text.size())))) return std::nullopt;
  return text;
}

bool FileSource::read(std::uint64_t offset, std::span<std::byte> out) {
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t n = ::pread(fd_, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace tensorgate::cli
