// GgufRecordList's chunks (tensorgate/gguf.hpp): the first small and touched page by page,
// the rest 2 MiB blocks backed, where the kernel can, by one huge page each.
#include "common/huge_pages.hpp"
#include "tensorgate/gguf.hpp"

namespace tensorgate {

void GgufRecordList::add_chunk() {
  const bool first = chunks_.empty();
  const std::size_t bytes = next_chunk_bytes();
  const std::size_t align = first ? 64 : kBigBytes;
  auto* p = static_cast<GgufTensorRecord*>(::operator new(bytes, std::align_val_t{align}));
  if (!first) detail::advise_huge_pages(p, bytes);
  chunks_.emplace_back(p, Free{align});
  capacity_ += first ? kFirst : kBig;
}

}  // namespace tensorgate
