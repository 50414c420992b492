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

CheckedFile check_file(const std::string& path, const Limits& limits, FormatChoice format, MemoryBudget* budget) {
  const bool stdin_input = path == "-";
  Fd fd(stdin_input ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC), !stdin_input);
  if (fd.get() < 0) return io_error(path, "cannot open");
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return io_error(path, "cannot stat");
  if (S_ISDIR(st.st_mode)) return CheckedFile{path, std::nullopt, "is a directory"};

  auto validator = make_validator(format, stdin_input ? std::string_view() : std::string_view(path), limits, budget);
  const bool regular = S_ISREG(st.st_mode);
  const auto size = static_cast<std::uint64_t>(st.st_size);
  if (regular) validator->set_total_size(size);

  // Not value-initialized: zeroing 1 MiB would touch every page even for a 100-byte file.
  const auto buffer = std::make_unique_for_overwrite<std::byte[]>(kChunk);
  std::uint64_t consumed = 0;
  for (;;) {
    if (regular && validator->bytes_wanted() == 0) {
      if (size > consumed) validator->skip(size - consumed);
      break;
    }
    std::size_t want = kChunk;
    if (regular) want = static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, validator->bytes_wanted()));
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
