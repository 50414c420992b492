#pragma once
// The TFLite push validator (docs/tflite.md): flatbuffers' verifier turned into a walk in file
// order. Every table, vector and string to verify is a pending read (Pending) of the bytes it
// needs; reads complete as the position passes their end, lowest end first, and what they say
// (a table's fields, a vector's offsets) adds the reads that follow. uoffsets only point forward,
// so everything but a vtable lies ahead of what points at it; the bytes that passed are kept
// (KeptBytes) for the vtables behind, except a Buffer's data vector: once its length is read, the
// run nothing else waits for is dropped, fed or skipped (bytes_skippable()). When the last read
// completes, the model is judged (tfl_model.cpp). Made by make_tflite_validator.
#include <cstdint>
#include <functional>
#include <optional>
#include <queue>
#include <span>
#include <string>
#include <vector>

#include "common/budget_hold.hpp"
#include "common/finding_list.hpp"
#include "tensorgate/tflite.hpp"
#include "tensorgate/validator.hpp"
#include "tflite/kept_bytes.hpp"
#include "tflite/model.hpp"
#include "tflite/schema.hpp"

namespace tensorgate::detail::tflite {

// No structure of a flatbuffer ends past this byte: flatbuffers' verifier takes buffers shorter
// than FLATBUFFERS_MAX_BUFFER_SIZE (2^31 - 1) and checks every read against the buffer's end.
inline constexpr std::uint64_t kFlatbufferEnd = (std::uint64_t{1} << 31) - 2;

enum class Step : std::uint8_t { root, table_start, vtable_size, vtable, table_fields, vector_length, elements };

struct Pending {
  std::uint64_t lo = 0, hi = 0;  // the bytes it waits for
  std::uint64_t seq = 0;         // the order it was asked in: ties complete in that order
  std::uint64_t at = 0;          // the table, vector or string
  std::uint64_t vtable = 0;
  std::uint32_t ctx0 = 0, ctx1 = 0;  // which record it fills (subgraph, tensor, ...)
  std::uint32_t count = 0;           // a vector's elements
  Step step = Step::root;
  Kind kind = Kind::model;
  Role role = Role::none;
  FieldType type = FieldType::table;
  std::uint8_t elem = 1;
  std::uint8_t depth = 0;  // tables above it and itself
};

// The lowest first byte of the pending reads: a min-heap of them with the completed ones removed
// lazily (a second heap of those taken out), which costs no allocation per read.
class LowestStart {
 public:
  void add(std::uint64_t lo) { live_.push(lo); }
  void remove(std::uint64_t lo) { gone_.push(lo); }
  std::uint64_t lowest() {
    while (!gone_.empty() && !live_.empty() && gone_.top() == live_.top()) live_.pop(), gone_.pop();
    return live_.empty() ? UINT64_MAX : live_.top();
  }
  void clear() { live_ = {}, gone_ = {}; }

 private:
  std::priority_queue<std::uint64_t, std::vector<std::uint64_t>, std::greater<>> live_, gone_;
};

struct Later {
  bool operator()(const Pending& a, const Pending& b) const { return a.hi != b.hi ? a.hi > b.hi : a.seq > b.seq; }
};

class TfliteValidator final : public Validator {
 public:
  TfliteValidator(const Limits& limits, MemoryBudget* budget);

  // The report never depends on the size: what lies past the end is found when the input ends.
  void set_total_size(std::uint64_t) override {}
  Progress feed(std::span<const std::byte> chunk) override;
  std::uint64_t bytes_wanted() const override { return reading() ? 1u << 16 : 0; }
  std::uint64_t bytes_skippable() const override { return reading() ? droppable() : 0; }
  Progress skip(std::uint64_t count) override;
  Report snapshot() const override { return report(); }
  Report finish() override;

 private:
  bool reading() const { return !stopped_ && !queue_.empty(); }
  std::uint64_t droppable() const;
  Progress progress() const;
  Report report() const;

  // tfl_flatbuffer.cpp: the walk.
  void settle();
  bool ask(Pending p);
  void proceed(const Pending& p);
  void process(const Pending& p);
  void on_root(const Pending& p);
  void on_table_start(const Pending& p);
  void on_vtable_size(const Pending& p);
  void on_vtable(const Pending& p);
  void on_table_fields(const Pending& p);
  void on_vector_length(const Pending& p);
  void on_elements(const Pending& p);
  bool follow(const Pending& table, const Field& f, std::uint64_t at);
  std::uint16_t voffset(const Pending& table, std::uint8_t id);
  std::optional<std::string_view> bytes(std::uint64_t at, std::uint64_t length, const char* what);
  void require(std::uint64_t end, std::uint64_t at, std::string what);
  bool claim_tables(std::uint64_t n, std::uint64_t at);
  bool hold(std::uint64_t bytes);
  void fail(std::string message, std::uint64_t offset);  // TFL.flatbuffer; the walk stops
  void abort_with(std::string limit, std::string message, AbortKind kind = AbortKind::limit);

  // tfl_records.cpp: what the tables, vectors and strings say into the model record.
  void record_table(const Pending& p);
  void record_vector(const Pending& p, std::uint32_t count);
  bool size_records(const Pending& p, std::uint32_t count);
  std::pair<std::uint32_t, std::uint32_t> child_context(const Pending& vec, std::uint32_t index) const;
  template <class T>
  T scalar(const Pending& table, std::uint8_t id, T fallback);

  // tfl_model.cpp: the model judged once the walk ends, and at the input's end.
  void judge();
  void judge_operator_codes();
  void judge_subgraph(std::uint32_t index);
  void judge_tensor(const SubgraphRecord& sg, const TensorRecord& t);
  void judge_at_end();
  std::string text(const Ref& r, std::size_t max) const;
  std::vector<std::int64_t> ints(const Ref& r);
  void build_summary();

  Limits limits_;
  FindingList findings_;
  BudgetHold memory_;
  KeptBytes kept_;
  std::priority_queue<Pending, std::vector<Pending>, Later> queue_;
  mutable LowestStart los_;
  std::optional<Aborted> aborted_;
  bool stopped_ = false, finished_ = false, judged_ = false;
  std::uint64_t bytes_seen_ = 0, seq_ = 0, tables_ = 0, data_end_ = 0;
  std::uint64_t required_end_ = 0, required_at_ = 0;
  std::string required_what_;
  // Elements of integer vectors read while judging: vectors may be shared by any number of
  // tables, so the reading is bounded by the bytes kept, not by the count of references.
  std::uint64_t ints_read_ = 0;
  bool ints_cut_ = false;
  ModelRecord model_;
  std::optional<TfliteSummary> summary_;
};

}  // namespace tensorgate::detail::tflite
