// Format detection: an auto validator that looks at the first four bytes, then delegates.
#include "tensorgate/detect.hpp"

#include <algorithm>
#include <array>
#include <cstring>

#include "tensorgate/gguf.hpp"
#include "tensorgate/pickle.hpp"
#include "tensorgate/zip.hpp"

namespace tensorgate {
namespace {

constexpr std::array<std::byte, 4> kGgufMagic = {std::byte{'G'}, std::byte{'G'}, std::byte{'U'}, std::byte{'F'}};

class AutoValidator final : public Validator {
 public:
  AutoValidator(const Limits& limits, MemoryBudget* budget) : limits_(limits), budget_(budget) {}

  void set_total_size(std::uint64_t size) override { total_ = size; }

  Progress feed(std::span<const std::byte> chunk) override {
    if (delegate_) return delegate_->feed(chunk);
    const std::size_t take = std::min(chunk.size(), head_.size() - have_);
    std::memcpy(head_.data() + have_, chunk.data(), take);
    have_ += take;
    if (have_ < head_.size()) return Progress::need_more;
    choose();
    delegate_->feed(std::span<const std::byte>(head_.data(), have_));
    return delegate_->feed(chunk.subspan(take));
  }

  // Before the choice: the rest of the magic (every format looks at its first bytes).
  std::uint64_t bytes_wanted() const override { return delegate_ ? delegate_->bytes_wanted() : head_.size() - have_; }

  Progress skip(std::uint64_t count) override {
    return delegate_ ? delegate_->skip(count) : Progress::need_more;
  }

  Report snapshot() const override {
    if (delegate_) return delegate_->snapshot();
    auto tentative = make_safetensors_validator(limits_);
    tentative->feed(std::span<const std::byte>(head_.data(), have_));
    return tentative->snapshot();
  }

  Report finish() override {
    if (!delegate_) {
      choose();  // fewer than four bytes: not the magic
      delegate_->feed(std::span<const std::byte>(head_.data(), have_));
    }
    return delegate_->finish();
  }

 private:
  void choose() {
    const bool gguf = have_ == head_.size() && head_ == kGgufMagic;
    delegate_ = gguf ? make_gguf_validator(limits_, budget_) : make_safetensors_validator(limits_, budget_);
    if (total_) delegate_->set_total_size(*total_);
  }

  Limits limits_;
  MemoryBudget* budget_;
  std::optional<std::uint64_t> total_;
  std::array<std::byte, 4> head_{};
  std::size_t have_ = 0;
  std::unique_ptr<Validator> delegate_;
};

}  // namespace

std::optional<FormatChoice> parse_format_choice(std::string_view text) {
  if (text == "auto") return FormatChoice::auto_detect;
  if (text == "safetensors") return FormatChoice::safetensors;
  if (text == "gguf") return FormatChoice::gguf;
  if (text == "pickle") return FormatChoice::pickle;
  if (text == "zip") return FormatChoice::zip;
  if (text == "npy") return FormatChoice::npy;
  return std::nullopt;
}

std::string_view format_choice_name(FormatChoice choice) {
  switch (choice) {
    case FormatChoice::safetensors: return "safetensors";
    case FormatChoice::gguf: return "gguf";
    case FormatChoice::pickle: return "pickle";
    case FormatChoice::zip: return "zip";
    case FormatChoice::npy: return "npy";
    case FormatChoice::auto_detect: break;
  }
  return "auto";
}

std::unique_ptr<Validator> make_validator(FormatChoice choice, std::string_view name, const Limits& limits,
                                          MemoryBudget* budget) {
  if (choice == FormatChoice::auto_detect && name.ends_with(".gguf")) choice = FormatChoice::gguf;
  switch (choice) {
    case FormatChoice::safetensors: return make_safetensors_validator(limits, budget);
    case FormatChoice::gguf: return make_gguf_validator(limits, budget);
    case FormatChoice::pickle: return make_pickle_validator(limits, budget);
    case FormatChoice::zip: return make_zip_validator(limits, budget);
    case FormatChoice::npy: return make_npy_validator(limits, budget);
    case FormatChoice::auto_detect: break;
  }
  return std::make_unique<AutoValidator>(limits, budget);
}

}  // namespace tensorgate
