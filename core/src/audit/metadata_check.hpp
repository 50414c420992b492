#pragma once
// The GGUF metadata against config.json: the architecture table's keys (block count, context
// length, embedding and feed-forward lengths, head counts, RoPE base and dimensions, norm
// epsilon, vocabulary size). Float keys are f32 in GGUF: they are compared with the config's
// value rounded to f32, bit for bit. An absent key is what llama.cpp assumes in its place.
#include "context.hpp"

namespace tensorgate::detail::audit {

void check_metadata(AuditContext& ctx);

}  // namespace tensorgate::detail::audit
