#pragma once
// The members "storages" and "tensors" of torch.load's legacy tar layout, read as its loader
// reads them (torch/serialization.py, legacy_load): pickles with raw bytes between them.
//   storages: a pickle (the count); per storage a pickle (key, location, storage class), the
//             element count (8 bytes, little-endian) and count x the class's element size
//             bytes; then a pickle (the views).
//   tensors:  a pickle (the count); per tensor a pickle (key, storage id, type), ndim (4 bytes),
//             4 bytes, ndim sizes and ndim strides (8 bytes each), the storage offset (8 bytes).
// Every pickle goes through one pickle scanner (PK rules); the raw parts are skipped by their
// sizes, so no storage byte is read as an opcode and no pickle is missed between them.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "pickle/scanner.hpp"

namespace tensorgate::detail::tar {

class LegacyMember {
 public:
  enum class Layout : std::uint8_t { storages, tensors };

  // `size`: the member's data bytes; `site`: where its findings go (base: its first data byte).
  LegacyMember(Layout layout, std::uint64_t size, const Limits& limits, pickle::ScanSite site, MemoryBudget* budget);

  void feed(const unsigned char* p, std::size_t n);
  void finish();

  const pickle::Scanner& scanner() const { return scanner_; }

 private:
  enum class St : std::uint8_t { pickle, fixed, raw, done, stopped };

  void after_pickle();
  void on_fixed();
  void fail(std::string message);

  Layout layout_;
  std::uint64_t size_;
  pickle::ScanSite site_;
  pickle::Scanner scanner_;
  St state_ = St::pickle;
  std::uint64_t pos_ = 0;          // member bytes consumed
  std::uint64_t pickles_ = 0;      // ended
  unsigned char fixed_[8]{};
  unsigned fixed_need_ = 0, fixed_have_ = 0;
  bool ndim_read_ = false;         // tensors: the 8 bytes of ndim read, its sizes and strides next
  std::uint32_t element_bytes_ = 0;
  std::uint64_t raw_left_ = 0;
};

}  // namespace tensorgate::detail::tar
