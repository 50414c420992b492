// FK.npy-header and FK.npy-data, as numpy.lib.format reads a file: "\x93NUMPY", major and minor
// version (1.0, 2.0, 3.0), the header length (2 bytes in version 1, 4 after), the header (at
// most 10,000 bytes), then exactly shape x item size bytes of data.
#include "npy/scanner.hpp"

#include <algorithm>
#include <cstring>

#include "common/saturating.hpp"
#include "npy/npy_header.hpp"

namespace tensorgate::detail::npy {

NpyScanner::NpyScanner(const Limits& limits, pickle::ScanSite site, MemoryBudget* budget)
    : limits_(limits), site_(std::move(site)), budget_(budget) {}

void NpyScanner::add(Rule rule, std::string message, std::uint64_t at) {
  site_.findings->add(rule, site_.where + std::move(message), site_.exact ? site_.base + at : site_.base);
}

void NpyScanner::feed(const unsigned char* p, std::size_t n) {
  while (n > 0) {
    switch (state_) {
      case St::prefix: {
        const std::size_t take = std::min(n, prefix_need_ - prefix_have_);
        std::memcpy(prefix_.data() + prefix_have_, p, take);
        prefix_have_ += take;
        pos_ += take;
        p += take;
        n -= take;
        if (prefix_have_ == prefix_need_) on_prefix();
        break;
      }
      case St::header: {
        const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(n, header_len_ - header_.size()));
        header_.append(reinterpret_cast<const char*>(p), take);
        pos_ += take;
        p += take;
        n -= take;
        if (header_.size() == header_len_) on_header();
        break;
      }
      case St::data:
        data_ += n;
        pos_ += n;
        if (pickle_) pickle_->feed(p, n);
        return;
      case St::stopped:
        pos_ += n;
        return;
    }
  }
}

void NpyScanner::on_prefix() {
  if (std::memcmp(prefix_.data(), "\x93NUMPY", 6) != 0) {
    add(Rule::fk_npy_header, "the file does not begin with the magic \\x93NUMPY", 0);
    state_ = St::stopped;
    return;
  }
  const unsigned major = prefix_[6], minor = prefix_[7];
  summary_.major = major;
  summary_.minor = minor;
  if ((major != 1 && major != 2 && major != 3) || minor != 0) {
    add(Rule::fk_npy_header, "format version " + std::to_string(major) + "." + std::to_string(minor) +
                                 " is none of 1.0, 2.0, 3.0", 6);
    state_ = St::stopped;
    return;
  }
  if (major > 1 && prefix_need_ == 10) {  // a 4-byte header length
    prefix_need_ = 12;
    return;
  }
  header_len_ = prefix_[8] | (prefix_[9] << 8);
  if (major > 1) header_len_ |= (static_cast<std::uint64_t>(prefix_[10]) << 16) | (static_cast<std::uint64_t>(prefix_[11]) << 24);
  summary_.header_length = header_len_;
  summary_.data_offset = prefix_need_ + header_len_;
  if (header_len_ > kNpyMaxHeader) {
    add(Rule::fk_npy_header, "the header is " + std::to_string(header_len_) + " bytes, above NumPy's 10,000", 8);
    state_ = St::stopped;
    return;
  }
  state_ = St::header;
  if (header_len_ == 0) on_header();
}

void NpyScanner::on_header() {
  HeaderResult r = parse_npy_header(header_);
  if (!r.header) {
    add(Rule::fk_npy_header, r.error, prefix_need_);
    state_ = St::stopped;
    return;
  }
  summary_.descr = r.header->descr;
  summary_.fortran_order = r.header->fortran_order;
  summary_.shape = r.header->shape;
  summary_.item_size = r.header->item_size;
  summary_.object = r.header->object;
  header_read_ = true;
  state_ = St::data;
  if (summary_.object) {
    pickle::ScanSite s = site_;
    s.base = site_.exact ? site_.base + pos_ : site_.base;
    s.where = site_.where + "the object array's pickle: ";
    pickle_ = std::make_unique<pickle::Scanner>(limits_.pickle, std::move(s), budget_);
  }
}

void NpyScanner::finish() {
  switch (state_) {
    case St::prefix:
    case St::header:
      add(Rule::fk_npy_header, "the input ends inside the .npy header", pos_);
      state_ = St::stopped;
      return;
    case St::data: break;
    case St::stopped: return;
  }
  summary_.data_bytes = data_;
  if (pickle_) {
    pickle_->finish();
    summary_.pickle = pickle_->summary();
    return;
  }
  if (!summary_.item_size) return;  // a structured dtype: its size is not computed
  std::uint64_t want = *summary_.item_size;
  for (const std::uint64_t d : summary_.shape) want = saturating_mul(want, d);
  if (data_ != want)
    add(Rule::fk_npy_data, "the header's shape and dtype need " + std::to_string(want) + " bytes of data, the file has " +
                               std::to_string(data_), summary_.data_offset);
}

std::optional<NpySummary> NpyScanner::summary() const {
  if (!header_read_) return std::nullopt;
  NpySummary s = summary_;
  s.data_bytes = data_;
  if (pickle_) s.pickle = pickle_->summary();
  return s;
}

}  // namespace tensorgate::detail::npy
