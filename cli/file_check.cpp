#include "file_check.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include "tensorgate/validator.hpp"

namespace tensorgate::cli {
namespace {

constexpr std::size_t kChunk = 1 << 20;

class Fd {
 public:
  explicit Fd(int fd, bool owned) : fd_(fd), owned_(owned) {}
  ~Fd() {
    if (owned_ && fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
  bool owned_;
};

CheckedFile io_error(const std::string& path, const std::string& what) {
  return CheckedFile{path, std::nullopt, what + ": " + std::strerror(errno)};
}

}  // namespace

CheckedFile check_file(const std::string& path, const Limits& limits, FormatChoice format) {
  const bool stdin_input = path == "-";
  Fd fd(stdin_input ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC), !stdin_input);
  if (fd.get() < 0) return io_error(path, "cannot open");
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return io_error(path, "cannot stat");
  if (S_ISDIR(st.st_mode)) return CheckedFile{path, std::nullopt, "is a directory"};

  auto validator = make_validator(format, stdin_input ? std::string_view() : std::string_view(path), limits);
  const bool regular = S_ISREG(st.st_mode);
  const auto size = static_cast<std::uint64_t>(st.st_size);
  if (regular) validator->set_total_size(size);

  // Not value-initialized: zeroing 1 MiB would touch every page even for a 100-byte file.
  const auto buffer = std::make_unique_for_overwrite<std::byte[]>(kChunk);
  std::uint64_t consumed = 0;
  bool tail = false;  // reading the last bytes, which the validator looks at after a skip
  for (;;) {
    if (regular && !tail && validator->bytes_wanted() == 0) {
      // Skip what is only counted, but for the last bytes the validator still looks at.
      const std::uint64_t keep = std::min(validator->tail_wanted(), size - std::min(size, consumed));
      if (size - keep > consumed) {
        validator->skip(size - keep - consumed);
        if (keep && ::lseek(fd.get(), static_cast<off_t>(size - keep), SEEK_SET) < 0) return io_error(path, "cannot seek");
        consumed = size - keep;
      }
      if (keep == 0) break;
      tail = true;
    }
    std::size_t want = kChunk;
    if (regular && !tail) want = static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, validator->bytes_wanted()));
    const ssize_t n = ::read(fd.get(), buffer.get(), want);
    if (n < 0) {
      if (errno == EINTR) continue;
      return io_error(path, "cannot read");
    }
    if (n == 0) break;
    consumed += static_cast<std::uint64_t>(n);
    if (validator->feed(std::span(buffer.get(), static_cast<std::size_t>(n))) == Progress::aborted) break;
  }
  return CheckedFile{path, validator->finish(), std::nullopt};
}

}  // namespace tensorgate::cli
