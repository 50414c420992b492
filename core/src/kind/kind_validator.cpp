// The report of a file that is no model format: FK.lfs-pointer, FK.empty or FK.unknown, as
// soon as the first bytes say so; the rest of the input is only counted.
#include <cassert>

#include "common/finding_list.hpp"
#include "common/number_text.hpp"
#include "common/printable.hpp"
#include "kind/auto_validator.hpp"

namespace tensorgate::detail::kind {
namespace {

class KindValidator final : public Validator {
 public:
  KindValidator(const Classification& c, const Limits& limits) : c_(c), findings_(limits.max_findings) {
    switch (c.format) {
      case Format::lfs_pointer: {
        const LfsPointerInfo lfs = c.lfs.value_or(LfsPointerInfo{});
        std::string what = lfs.oid.empty() ? std::string("no oid") : "oid " + printable(lfs.oid);
        what += lfs.size ? ", size " + commas(*lfs.size) + " bytes" : ", no size";
        findings_.add(Rule::fk_lfs_pointer, "a Git LFS pointer (" + what + "), not the file it points to: the checkout did "
                                            "not fetch the LFS objects (git lfs pull, or check out with lfs: true)", 0);
        break;
      }
      case Format::empty: findings_.add(Rule::fk_empty, "the file is empty (0 bytes): no model format is", 0); break;
      default:
        findings_.add(Rule::fk_unknown, "the content is no model format (safetensors, GGUF, pickle, zip, NumPy .npy, tar, ONNX): it looks like " +
                                            c.looks_like, 0);
    }
  }
  void set_total_size(std::uint64_t) override {}
  Progress feed(std::span<const std::byte> chunk) override {
    seen_ += chunk.size();
    return Progress::invalid;
  }
  std::uint64_t bytes_wanted() const override { return 0; }
  Progress skip(std::uint64_t count) override {
    seen_ += count;
    return Progress::invalid;
  }
  Report snapshot() const override {
    Report r;
    r.format = c_.format;
    r.findings = findings_.items();
    r.findings_dropped = findings_.dropped();
    r.bytes_seen = seen_;
    r.valid = false;
    if (c_.format == Format::lfs_pointer) r.summary = c_.lfs.value_or(LfsPointerInfo{});
    else r.summary = UnknownContent{c_.looks_like, c_.format == Format::empty};
    return r;
  }
  Report finish() override { return snapshot(); }

 private:
  Classification c_;
  FindingList findings_;
  std::uint64_t seen_ = 0;
};

}  // namespace

std::unique_ptr<Validator> make_kind_validator(const Classification& c, const Limits& limits) {
  return std::make_unique<KindValidator>(c, limits);
}

}  // namespace tensorgate::detail::kind
