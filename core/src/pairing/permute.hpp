#pragma once
// llama.cpp's converter permutes the rows of the query and key projections (convert_hf_to_gguf.py,
// LlamaModel.permute) so that its RoPE kernel sees each head's rotated pairs interleaved: the
// rows are viewed as [n_head, 2, rows/n_head/2] blocks of whole rows, the last two axes are
// swapped, and the result is flattened back. n_head is num_attention_heads for q and
// num_key_value_heads for k.
//
// Read back: GGUF row r = h*(2*half) + 2*i + j (head h, i < half, j < 2) holds source row
// h*(2*half) + j*half + i, half = rows/n_head/2. Whole rows move; a row's elements never do.
#include <cstdint>

namespace tensorgate::detail::pairing {

// Whether `rows` splits into the permutation's blocks.
constexpr bool permutable_rows(std::uint64_t rows, std::uint64_t heads) {
  return heads > 0 && rows % heads == 0 && (rows / heads) % 2 == 0;
}

// The source row that GGUF row `r` holds.
constexpr std::uint64_t permuted_source_row(std::uint64_t r, std::uint64_t rows, std::uint64_t heads) {
  const std::uint64_t per_head = rows / heads, half = per_head / 2;
  const std::uint64_t h = r / per_head, w = r % per_head;
  return h * per_head + (w % 2) * half + w / 2;
}

}  // namespace tensorgate::detail::pairing
