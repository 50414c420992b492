#pragma once
// A NumPy .npy stream: magic, version, header length, the header dict, then the data (counted),
// or, for an object array, a pickle (the pickle scanner judges it). Used alone (the .npy
// validator) and by the zip walker for the arrays of an .npz. Findings go to the owner's list.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "common/finding_list.hpp"
#include "pickle/scanner.hpp"
#include "tensorgate/npy.hpp"

namespace tensorgate::detail::npy {

class NpyScanner {
 public:
  NpyScanner(const Limits& limits, pickle::ScanSite site, MemoryBudget* budget);

  void feed(const unsigned char* p, std::size_t n);
  void finish();
  // What the header says, once it has been read: nothing before (or when it could not be).
  std::optional<NpySummary> summary() const;
  bool in_data() const { return state_ == St::data && !pickle_; }  // only counting from here
  std::optional<Aborted> aborted() const { return pickle_ ? pickle_->aborted() : std::nullopt; }
  void skip(std::uint64_t n) { pos_ += n; data_ += n; }

 private:
  enum class St : std::uint8_t { prefix, header, data, stopped };
  void on_prefix();
  void on_header();
  void add(Rule rule, std::string message, std::uint64_t at);

  Limits limits_;
  pickle::ScanSite site_;
  MemoryBudget* budget_;
  St state_ = St::prefix;
  std::uint64_t pos_ = 0;
  std::array<unsigned char, 12> prefix_{};
  std::size_t prefix_need_ = 10, prefix_have_ = 0;
  std::string header_;
  std::uint64_t header_len_ = 0;
  NpySummary summary_;
  bool header_read_ = false;
  std::uint64_t data_ = 0;
  std::unique_ptr<pickle::Scanner> pickle_;
};

}  // namespace tensorgate::detail::npy
