// Writes the gguf_fuzzer seed corpus (tests/support/gguf_seeds.cpp) into a directory:
//   write_gguf_seeds corpus/gguf_fuzzer
// The committed corpus is this program's output; tests/gguf_seeds_test.cpp checks it is current.
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "gguf_seeds.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: write_gguf_seeds DIR\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  for (const auto& s : tgtest::gguf_seeds())
    std::ofstream(dir / s.name, std::ios::binary).write(s.bytes.data(), static_cast<std::streamsize>(s.bytes.size()));
  return 0;
}
