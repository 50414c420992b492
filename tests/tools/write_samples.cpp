// Writes the test suite's sample files into a directory (CLI tests, fuzz corpus seeding), with
// a manifest of their expected outcomes: "name<TAB>valid<TAB>family<TAB>canonical" per line.
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "samples.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: write_samples DIR\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  std::ofstream manifest(dir / "MANIFEST.tsv");
  for (const auto& s : tgtest::safetensors_samples()) {
    std::ofstream(dir / s.name, std::ios::binary).write(s.bytes.data(), static_cast<std::streamsize>(s.bytes.size()));
    manifest << s.name << '\t' << (s.valid ? "valid" : "invalid") << '\t' << s.family << '\t' << s.canonical << '\n';
  }
  return 0;
}
