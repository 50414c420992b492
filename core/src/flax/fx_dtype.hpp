#pragma once
// FX.dtype: the dtype names flax writes (numpy's `dtype.name` of the array, and the names
// ml_dtypes gives the types jax adds: bfloat16, the float8s, int4), each with its itemsize;
// any other name is refused, with why (an object dtype, a structured one, or unknown).
#include <cstdint>
#include <string>
#include <string_view>

namespace tensorgate::detail::flax {

struct Dtype {
  std::string_view name;
  std::uint32_t itemsize;
};

// The dtype of that name, or null.
const Dtype* dtype_named(std::string_view name);

// Why a name that is not one of them is refused: the FX.dtype message's reason.
std::string dtype_refusal(std::string_view name);

}  // namespace tensorgate::detail::flax
