// Writes a synthetic safetensors file with COUNT tensors to PATH: the header is written, the
// data section is made by extending the file (sparse), so a 1,000,000-tensor file costs its
// header's size on disk. For bench/run_header_bench.py's process timings and peak memory.
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "synthetic_header.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: make_header_file COUNT PATH\n");
    return 2;
  }
  const auto h = tgbench::make_header(std::strtoull(argv[1], nullptr, 10));
  const int fd = ::open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0 || ::write(fd, h.file_prefix.data(), h.file_prefix.size()) != static_cast<ssize_t>(h.file_prefix.size()) ||
      ::ftruncate(fd, static_cast<off_t>(h.file_prefix.size() + h.data_length)) != 0) {
    std::perror("make_header_file");
    return 1;
  }
  ::close(fd);
  std::printf("%s: header %zu bytes, data %llu bytes\n", argv[2], h.file_prefix.size() - 8,
              static_cast<unsigned long long>(h.data_length));
  return 0;
}
