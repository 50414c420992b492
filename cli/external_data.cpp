#include "external_data.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string_view>

#include "tensorgate/onnx.hpp"

namespace tensorgate::cli {
namespace {

// Closes the descriptor of a directory on the way.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  void reset(int fd) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

// `location` (relative, no ".." component: OX.external-location refuses the others before a
// lookup) component by component from the model's directory: a symbolic link anywhere on the
// way is one, and a directory is entered only by O_NOFOLLOW.
ExternalFileFacts facts_at(const std::string& dir, std::string_view location) {
  using Kind = ExternalFileFacts::Kind;
  Fd at(::open(dir.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (at.get() < 0) return {Kind::missing};
  std::size_t start = 0;
  for (;;) {
    const std::size_t slash = location.find('/', start);
    const std::string component(location.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start));
    const bool last = slash == std::string_view::npos;
    start = last ? location.size() : slash + 1;
    if (component.empty() || component == ".") {
      if (last) return {Kind::not_regular};  // the location names a directory
      continue;
    }
    struct stat st {};
    if (::fstatat(at.get(), component.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return {Kind::missing};
    if (S_ISLNK(st.st_mode)) return {Kind::symlink};
    if (last) {
      if (!S_ISREG(st.st_mode)) return {Kind::not_regular};
      return {Kind::regular, static_cast<std::uint64_t>(st.st_size), static_cast<std::uint64_t>(st.st_nlink)};
    }
    if (!S_ISDIR(st.st_mode)) return {Kind::missing};
    at.reset(::openat(at.get(), component.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (at.get() < 0) return {Kind::missing};
  }
}

}  // namespace

void check_external_data(Report& report, const std::string& model_path, const Limits& limits) {
  const std::size_t slash = model_path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : model_path.substr(0, slash);
  check_external_files(report, [&](std::string_view location) { return facts_at(dir, location); }, limits);
}

}  // namespace tensorgate::cli
