// The GGUF validator under the chunking invariant: the input's first bytes choose the chunk
// boundaries (fuzz_support.hpp, Split); whole, cut, with the total size announced, and with
// the data skipped, the report must be the same.
#include <cstdint>

#include "fuzz_support.hpp"
#include "tensorgate/gguf.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const tgfuzz::Split s = tgfuzz::split_of(tgfuzz::as_text(data, size));
  tgfuzz::check_chunking([] { return tensorgate::make_gguf_validator(); }, s);
  return 0;
}
