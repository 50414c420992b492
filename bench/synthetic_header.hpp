#pragma once
// Synthetic safetensors headers for benchmarks: `count` tensors with llama-like names, mixed
// dtypes, small 2-D shapes, contiguous data offsets, compact JSON (~90 bytes a tensor).
#include <cstdint>
#include <string>

namespace tgbench {

struct SyntheticHeader {
  std::string file_prefix;  // the 8-byte N and the padded header text
  std::uint64_t data_length = 0;
};

SyntheticHeader make_header(std::uint64_t count);

}  // namespace tgbench
