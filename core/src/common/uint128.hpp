#pragma once
// Exact arithmetic for sizes that may pass 64 bits (GCC and clang both provide __int128).
namespace tensorgate::detail {
__extension__ typedef unsigned __int128 uint128;
}
