#pragma once
// Append-only storage for short strings (keys, tensor names) whose views must stay valid while
// more are added: blocks are never moved, so hash sets can hold string_views into them.
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

namespace tensorgate::detail::gguf {

class ArenaWriter {
 public:
  explicit ArenaWriter(std::vector<std::unique_ptr<char[]>>& blocks) : blocks_(&blocks) {}

  // Copies `s`; `allocated` grows by the bytes of any new block (memory accounting).
  std::string_view store(std::string_view s, std::size_t& allocated) {
    if (s.empty()) return {};
    if (s.size() > kBlock / 4) {  // a long key gets a block of its own
      blocks_->push_back(std::make_unique_for_overwrite<char[]>(s.size()));
      allocated += s.size();
      std::memcpy(blocks_->back().get(), s.data(), s.size());
      return {blocks_->back().get(), s.size()};
    }
    if (current_ == nullptr || used_ + s.size() > kBlock) {
      blocks_->push_back(std::make_unique_for_overwrite<char[]>(kBlock));
      allocated += kBlock;
      current_ = blocks_->back().get();
      used_ = 0;
    }
    char* at = current_ + used_;
    std::memcpy(at, s.data(), s.size());
    used_ += s.size();
    return {at, s.size()};
  }

 private:
  static constexpr std::size_t kBlock = 1 << 16;
  std::vector<std::unique_ptr<char[]>>* blocks_;
  char* current_ = nullptr;
  std::size_t used_ = 0;
};

}  // namespace tensorgate::detail::gguf
