#pragma once
// Named GGUF files with their expected verdict, one or more per rule family: the seed corpus of
// the gguf_fuzzer (corpus/gguf_fuzzer/, written by tests/tools/write_gguf_seeds) and a test
// that their verdicts hold and the committed copies are current.
#include <string>
#include <vector>
#include "tensorgate/gguf.hpp"

namespace tgtest {

struct GgufSeed {
  std::string name;    // file name, ends in .gguf
  std::string bytes;
  bool valid;
  std::string family;  // the first error's family; for valid files the first warning's, or ""
};

std::vector<GgufSeed> gguf_seeds();

}  // namespace tgtest
