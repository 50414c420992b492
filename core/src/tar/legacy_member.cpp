#include "tar/legacy_member.hpp"

#include <algorithm>
#include <cstring>

#include "common/little_endian.hpp"

namespace tensorgate::detail::tar {
LegacyMember::LegacyMember(Layout layout, std::uint64_t size, const Limits& limits, pickle::ScanSite site,
                           MemoryBudget* budget)
    : layout_(layout), size_(size), site_(site), scanner_(limits.pickle, std::move(site), budget) {}

void LegacyMember::fail(std::string message) {
  site_.findings->add(Rule::fk_tar_member, site_.where + std::move(message), site_.base + pos_);
  state_ = St::stopped;
}

void LegacyMember::feed(const unsigned char* p, std::size_t n) {
  while (n > 0) {
    std::size_t used = 0;
    switch (state_) {
      case St::pickle: {
        used = scanner_.feed_to_stop(p, n);
        if (scanner_.stopped()) {
          state_ = St::stopped;  // the scanner said why
        } else if (scanner_.between_pickles()) {  // a STOP: feed_to_stop leaves the state between only there
          pos_ += used;
          p += used;
          n -= used;
          ++pickles_;
          after_pickle();
          continue;
        }
        break;
      }
      case St::fixed: {
        used = std::min<std::size_t>(n, fixed_need_ - fixed_have_);
        std::memcpy(fixed_ + fixed_have_, p, used);
        fixed_have_ += static_cast<unsigned>(used);
        scanner_.skip(used);
        pos_ += used;
        p += used;
        n -= used;
        if (fixed_have_ == fixed_need_) on_fixed();
        continue;
      }
      case St::raw: {
        used = static_cast<std::size_t>(std::min<std::uint64_t>(n, raw_left_));
        raw_left_ -= used;
        scanner_.skip(used);
        if (raw_left_ == 0) state_ = St::pickle;
        break;
      }
      case St::done:
        // After the views torch reads nothing, unless the pickle taken for the views was a
        // storage whose class this reader cannot size: then it reads raw bytes and more pickles.
        fail("bytes follow the pickle this reader takes for the storage views (its storage class is none of torch's)");
        continue;
      case St::stopped:
        used = n;
        scanner_.skip(used);
        break;
    }
    pos_ += used;
    p += used;
    n -= used;
  }
}

// What follows a pickle's STOP: the count pickle is followed by the next pickle; a storage's
// pickle by its element count; the views pickle ends the member; a tensor's pickle by ndim.
void LegacyMember::after_pickle() {
  if (pickles_ == 1) return;  // the count
  if (layout_ == Layout::storages) {
    element_bytes_ = scanner_.storage_class_bytes();
    if (element_bytes_ == 0) {
      state_ = St::done;  // the views: torch reads nothing after them
      return;
    }
  }
  state_ = St::fixed;
  fixed_need_ = 8;
  fixed_have_ = 0;
  ndim_read_ = false;
}

void LegacyMember::on_fixed() {
  const std::uint64_t left = size_ - pos_;
  if (layout_ == Layout::storages) {
    const std::uint64_t count = le64(fixed_);
    if (count > left / element_bytes_)
      return fail("a storage of " + std::to_string(count) + " elements of " + std::to_string(element_bytes_) +
                  " bytes runs past the member's end (" + std::to_string(left) + " bytes remain)");
    raw_left_ = count * element_bytes_;
  } else if (!ndim_read_) {
    const auto ndim = static_cast<std::int32_t>(le32(fixed_));  // then 4 bytes torch skips
    if (ndim < 0 || static_cast<std::uint64_t>(ndim) * 16 + 8 > left)
      return fail("a tensor of " + std::to_string(ndim) + " dimensions: its sizes, strides and offset run past the member's end (" +
                  std::to_string(left) + " bytes remain)");
    raw_left_ = static_cast<std::uint64_t>(ndim) * 16 + 8;
  }
  state_ = raw_left_ ? St::raw : St::pickle;
}

void LegacyMember::finish() {
  if (state_ == St::fixed || state_ == St::raw) {
    fail("the member ends inside the raw bytes that follow a pickle");
    return;
  }
  if (state_ == St::pickle) scanner_.finish();  // a pickle cut short, or none at all: the scanner says so
}

}  // namespace tensorgate::detail::tar
