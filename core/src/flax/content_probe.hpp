#pragma once
// Whether the first bytes of an input are a Flax checkpoint (kind/classify.cpp asks): msgpack's
// map header (fixmap of 1-15 entries, map16, map32; not the empty fixmap 0x80, which is pickle's
// PROTO) whose first key is a whole non-empty UTF-8 string with no control character, and a
// byte after it that msgpack defines. Only the start is judged: a broken file after it is a Flax
// file with FX findings.
#include <string_view>

namespace tensorgate::detail::flax {

enum class ProbeVerdict { yes, no, undecided };

// `complete`: no more bytes will come.
ProbeVerdict probe_checkpoint(std::string_view prefix, bool complete);

}  // namespace tensorgate::detail::flax
