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

// The same header with a space before its closing brace: valid, but not plain
// (core/src/safetensors/st2_plain_header.hpp) at its last byte, so the fast path scans it all and
// hands it to the general parse: the most a header can make the validator spend.
SyntheticHeader not_plain_at_end(const SyntheticHeader& plain);

}  // namespace tgbench
