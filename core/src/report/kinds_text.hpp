#pragma once
// The headline facts of the kinds beyond safetensors and GGUF, for the text report:
// ", protocol 2, 5 pickles (legacy torch.save), 4 globals (1 dangerous), 2 tensors".
#include <string>

#include "tensorgate/report.hpp"

namespace tensorgate::detail {

std::string kind_facts(const Report& r);

}  // namespace tensorgate::detail
