#pragma once
// The HDF5 push validator (docs/hdf5.md): the signature (at 0 or after a user block), the
// superblock, the root group's object header with its continuation blocks, its attribute
// messages and the global heap collections their variable-length strings live in, each read as a
// region when its bytes pass (regions.hpp), everything between offered to the face to skip. When
// the last region is read, a Keras model's config attributes are judged (kr_keras.hpp). A region
// behind the bytes passed, or a structure the reader does not follow (dense attribute storage,
// shared messages), makes the verdict aborted. Made by make_hdf5_validator (tensorgate/hdf5.hpp).
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "common/budget_hold.hpp"
#include "common/finding_list.hpp"
#include "hdf5/h5_format.hpp"
#include "hdf5/regions.hpp"
#include "hdf5/root_attributes.hpp"
#include "tensorgate/hdf5.hpp"
#include "tensorgate/validator.hpp"

namespace tensorgate::detail::hdf5 {

class Hdf5Validator final : public Validator {
 public:
  Hdf5Validator(const Limits& limits, MemoryBudget* budget);

  // The report never depends on the size: a region past the end is found when the input ends.
  void set_total_size(std::uint64_t) override {}
  Progress feed(std::span<const std::byte> chunk) override;
  std::uint64_t bytes_wanted() const override { return reading() ? 1u << 16 : 0; }
  std::uint64_t bytes_skippable() const override { return reading() ? regions_.gap() : 0; }
  Progress skip(std::uint64_t count) override;
  Report snapshot() const override { return report(); }
  Report finish() override;

 private:
  bool reading() const { return !stopped_ && !regions_.empty(); }
  Progress progress() const;
  Report report() const;

  // Complete regions: grown in place when their first bytes give their length, else processed:
  // what their bytes say, and the regions that follow from them.
  void settle();
  bool grow(Region& r);
  void process(Region r);
  void on_superblock(Region& r);
  void on_header(Region& r);
  void on_continuation(Region& r);
  void on_collection(Region& r);
  void read_messages(std::string_view chunk, std::uint64_t offset);
  void on_message(const Message& m, std::uint64_t offset);
  void on_attribute(const Message& m, std::uint64_t offset);
  void on_continuation_message(const Message& m, std::uint64_t offset);
  void wait_for_heap(std::size_t attribute);
  void resolve_waiting(std::uint64_t address, std::string_view collection);
  void all_read();

  // A region to read, after its checks; false when it was refused (the reader stopped).
  bool request(Region r, const char* what);
  // A region read in place grows (its first bytes gave its length).
  bool extend(Region& r, std::uint64_t length, std::uint32_t stage);
  // A region's length against Limits::hdf5.max_metadata_bytes, before any of it is held.
  bool claim(std::uint64_t bytes);
  // Bytes held (a region's as they arrive, a kept value) from the shared memory budget.
  bool hold(std::uint64_t bytes);
  std::optional<std::uint64_t> absolute(std::uint64_t relative, const char* what, std::uint64_t offset);
  void fail(std::string message, std::uint64_t offset);  // KR.hdf5; the reading stops
  void abort_with(std::string limit, std::string message, AbortKind kind = AbortKind::limit);
  void fault(const Fault& f, const std::string& where, std::uint64_t offset);

  Limits limits_;
  FindingList findings_;
  BudgetHold memory_;
  Regions regions_;
  std::optional<Aborted> aborted_;
  bool stopped_ = false, finished_ = false, judged_ = false;
  std::uint64_t bytes_seen_ = 0, metadata_claimed_ = 0;

  std::optional<Superblock> superblock_;
  std::uint64_t base_ = 0;
  HeaderPrefix header_;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> chunks_;  // the root header's, read or asked for
  std::uint32_t continuations_ = 0, messages_ = 0;
  std::vector<KeptAttribute> attributes_;
  std::uint64_t attributes_seen_ = 0, attributes_listed_ = 0;
  std::vector<std::pair<std::uint64_t, std::string>> collections_;  // read, while attributes may point at them
  Hdf5Summary summary_;
};

}  // namespace tensorgate::detail::hdf5
