#pragma once
// Named safetensors files with their expected outcome: one or more per rule family and per
// detail of docs/rules.md. The CLI tests check them end to end, the fuzz corpora are seeded
// from them (tests/tools/write_samples).
#include <string>
#include <vector>

namespace tgtest {

struct Sample {
  std::string name;      // file name, ends in .safetensors
  std::string bytes;
  bool valid;
  std::string family;    // the first error's family, or for valid files a warning family or ""
  int canonical;         // 1, 0, or -1 when not applicable (invalid)
};

std::vector<Sample> safetensors_samples();

}  // namespace tgtest
