#pragma once
// The header text a safetensors validator gathers and its TensorTable keeps: one block whose
// bytes arrive by a copy (append) or by a read straight into it (spare, then commit: the room
// Validator::prepare hands out), and are never zero-filled first.
//
// Why not std::string: C++20 has no way to grow a string without writing every new byte, so a
// read into it would have cost a zero-fill of the whole header before the read itself; and a
// copy from the reader's buffer was most of the validator's time beyond the parse on a
// 1,000,000-tensor header (bench/README.md, "The 1,000,000-tensor validator").
#include <cassert>
#include <cstddef>
#include <cstring>
#include <memory>
#include <span>
#include <string_view>

namespace tensorgate {

class HeaderBuffer {
 public:
  HeaderBuffer() = default;
  explicit HeaderBuffer(std::string_view text) {
    reserve(text.size());
    append(text);
  }

  std::size_t size() const { return size_; }
  std::size_t capacity() const { return capacity_; }
  const char* data() const { return bytes_.get(); }
  std::string_view view() const { return {bytes_.get(), size_}; }

  // Room for exactly `n` bytes in a new block, with the bytes so far moved into it (the old
  // block is freed before this returns). Never shrinks.
  void reserve(std::size_t n) {
    if (n <= capacity_) return;
    auto grown = std::make_unique_for_overwrite<char[]>(n);
    if (size_) std::memcpy(grown.get(), bytes_.get(), size_);
    bytes_ = std::move(grown);
    capacity_ = n;
  }
  // Within the capacity only: the caller reserves first.
  void append(std::string_view s) {
    assert(s.size() <= capacity_ - size_);
    if (!s.empty()) std::memcpy(bytes_.get() + size_, s.data(), s.size());
    size_ += s.size();
  }
  // The room after the bytes so far, to be written in place, then committed.
  std::span<char> spare() { return {bytes_.get() + size_, capacity_ - size_}; }
  void commit(std::size_t n) {
    assert(n <= capacity_ - size_);
    size_ += n;
  }

 private:
  std::unique_ptr<char[]> bytes_;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

}  // namespace tensorgate
