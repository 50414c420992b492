#pragma once
// torch's storage classes and dtype objects, named as safetensors names dtypes where it can
// (F32, BF16, I64, ...), with their element sizes: the state-dict summary's dtypes.
#include <optional>
#include <string_view>

#include "tensorgate/pickle.hpp"

namespace tensorgate::detail::pickle {

// "float32" (the attribute of torch) -> F32.
std::optional<TorchDtype> torch_dtype_object(std::string_view name);

}  // namespace tensorgate::detail::pickle
