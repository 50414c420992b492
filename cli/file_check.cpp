#include "file_check.hpp"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "external_data.hpp"
#include "input_source.hpp"
#include "openvino_weights.hpp"
#include "source_check.hpp"

namespace tensorgate::cli {
namespace {

std::string with_errno(const std::string& what) { return what + ": " + std::strerror(errno); }

// A local file or standard input: read(2) in order; a regular file's size from fstat, a block
// device's from BLKGETSIZE64.
class FdSource final : public InputSource {
 public:
  FdSource(int fd, bool owned) : fd_(fd), owned_(owned) {}
  ~FdSource() override {
    if (owned_ && fd_ >= 0) ::close(fd_);
  }
  FdSource(const FdSource&) = delete;
  FdSource& operator=(const FdSource&) = delete;

  int fd() const { return fd_; }
  void set_size(std::uint64_t size) { size_ = size; }
  void set_device() { device_ = true; }

  std::optional<std::uint64_t> size() const override { return size_; }
  // A character device (/dev/zero, /dev/urandom, a terminal) may never end and has no writer to
  // cut off: read only until the verdict is final, and at most Limits::max_device_bytes. A pipe
  // is read to its end, so that a writer such as `tee` is not cut off.
  bool stop_when_final() const override { return device_; }
  bool may_never_end() const override { return device_; }

  SourceRead read(std::span<std::byte> out, std::uint64_t) override {
    for (;;) {
      const ssize_t n = ::read(fd_, out.data(), out.size());
      if (n >= 0) return SourceRead{static_cast<std::size_t>(n), std::nullopt};
      if (errno != EINTR) return SourceRead{0, with_errno("cannot read")};
    }
  }

  bool seeks() const override { return size_.has_value(); }  // a regular file or a block device

  // Past what is only counted, to the last bytes the validator still looks at (tail_wanted()),
  // or over a run it does not look at.
  std::optional<std::string> skip(std::uint64_t count) override {
    if (::lseek(fd_, static_cast<off_t>(count), SEEK_CUR) < 0) return with_errno("cannot seek");
    return std::nullopt;
  }

 private:
  int fd_;
  bool owned_;
  std::optional<std::uint64_t> size_;
  bool device_ = false;
};

}  // namespace

CheckedFile check_file(const std::string& path, const Limits& limits, FormatChoice format, MemoryBudget* budget) {
  const bool stdin_input = path == "-";
  FdSource source(stdin_input ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC), !stdin_input);
  if (source.fd() < 0) return CheckedFile{path, std::nullopt, with_errno("cannot open")};
  struct stat st {};
  if (::fstat(source.fd(), &st) != 0) return CheckedFile{path, std::nullopt, with_errno("cannot stat")};
  if (S_ISDIR(st.st_mode)) return CheckedFile{path, std::nullopt, "is a directory"};
  if (S_ISREG(st.st_mode)) source.set_size(static_cast<std::uint64_t>(st.st_size));
  // A block device (a disk, a partition) has a size and ends; a character device may not.
  std::uint64_t device_bytes = 0;
  if (S_ISBLK(st.st_mode) && ::ioctl(source.fd(), BLKGETSIZE64, &device_bytes) == 0) {
    source.set_size(device_bytes);
  } else if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) {
    source.set_device();
  }
  // A header's buffer on huge pages from its first byte: the bytes are the file's, and no
  // client can make this process hold memory for a header it only declares.
  Limits local = limits;
  local.header_huge_pages_after = 0;
  CheckedFile checked = check_source(source, path, stdin_input ? std::string_view() : std::string_view(path), local, format, budget);
  // An ONNX model's external data files beside it (standard input has no directory to look in).
  if (checked.report && !stdin_input) check_external_data(*checked.report, path, limits);
  // An OpenVINO model.xml's weights, the .bin beside it.
  if (checked.report && !stdin_input) check_openvino_pair(*checked.report, path, limits);
  return checked;
}

}  // namespace tensorgate::cli
