#pragma once
// Builds safetensors bytes for tests: any header text (valid or not), any length prefix.
#include <cstdint>
#include <string>
#include <string_view>

#include "tensorgate/limits.hpp"
#include "tensorgate/report.hpp"
#include "tensorgate/safetensors/summary.hpp"
#include "tensorgate/validator.hpp"

namespace tgtest {

// 8-byte little-endian N, then `header` padded with spaces to a multiple of 8 (when `pad`),
// then `data`.
std::string st_file(std::string_view header, std::string_view data = {}, bool pad = true);
// The same with an explicit N (which need not match the header's length).
std::string st_file_n(std::uint64_t n, std::string_view header, std::string_view data = {});
// A valid file of `n` one-byte U8 tensors ("t0", "t1", ...) in the plain shape writers write
// (read by the plain-header fast path, core/src/safetensors/st2_plain_header.hpp).
std::string plain_file(int n);
// `data` of `size` zero bytes.
inline std::string zeros(std::size_t size) { return std::string(size, '\0'); }

// Validate whole bytes with default limits.
tensorgate::Report check(std::string_view bytes);

// The ids of a report's findings of a severity ("ST4.dtype", ...), in order.
std::string ids(const tensorgate::Report& r);
std::string error_ids(const tensorgate::Report& r);

}  // namespace tgtest
