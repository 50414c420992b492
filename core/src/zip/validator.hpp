#pragma once
// The zip push validator: one pass over the archive as it streams, like a streaming unzip:
//   local header -> entry data (stored, or deflate through zlib) -> [data descriptor] -> ...
//   -> central directory -> [zip64 end record, locator] -> end record [-> comment]
// and at the end the central directory (what loaders read) is checked against the local
// headers (what the walk streamed). Each entry's bytes go to its content's scanner
// (members/member_content.hpp); a PyTorch archive's data.pkl says where each storage ends, so the walk
// looks for those storages' data descriptors in one place instead of every byte.
#include <boost/unordered/unordered_flat_map.hpp>
#include <boost/unordered/unordered_flat_set.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/finding_list.hpp"
#include "common/seeded_hash.hpp"
#include "pickle/machine.hpp"
#include "pickle/torchscript_globals.hpp"
#include "zip/descriptor_search.hpp"
#include "members/member_content.hpp"
#include "zip/inflater.hpp"
#include "tensorgate/validator.hpp"
#include "tensorgate/zip.hpp"

namespace tensorgate::detail::zip {

// Record signatures, as little-endian u32.
inline constexpr std::uint32_t kLocal = 0x04034b50, kCentral = 0x02014b50, kEnd = 0x06054b50,
                               kZip64End = 0x06064b50, kZip64Locator = 0x07064b50, kDescriptor = 0x08074b50,
                               kDigitalSignature = 0x05054b50, kArchiveExtra = 0x08064b50;

struct LocalEntry {
  std::uint64_t offset = 0;      // of the local header
  std::uint64_t data_start = 0;
  std::uint32_t name_at = 0, name_len = 0;  // in the walker's name arena
  std::uint16_t flags = 0, method = 0;
  std::uint32_t crc = 0;         // as recorded (local header or data descriptor)
  std::uint64_t compressed = 0, uncompressed = 0;  // as the walk found them
  bool zip64 = false;            // the local header has a zip64 extra field
  bool listed = false;           // a central-directory entry points at it
  members::Content content = members::Content::data;
};

// A central-directory record's fields, its zip64 values read (zp_central.cpp).
struct CentralRecord {
  std::uint16_t flags = 0, method = 0;
  std::uint32_t crc = 0;
  std::uint64_t csize = 0, usize = 0, offset = 0, disk = 0;
  std::string_view name;  // in the walker's record buffer
};

struct OffsetHash {
  using is_avalanching = std::true_type;
  std::size_t operator()(std::uint64_t v) const { return seeded_hash_u64(v); }
};
struct NameHash {
  using is_avalanching = std::true_type;
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const { return seeded_hash(s); }
};

class ZipValidator final : public Validator {
 public:
  ZipValidator(const Limits& limits, MemoryBudget* budget);
  ~ZipValidator() override;

  void set_total_size(std::uint64_t) override {}  // nothing is decided from the size
  Progress feed(std::span<const std::byte> chunk) override;
  std::uint64_t bytes_wanted() const override;
  Progress skip(std::uint64_t count) override;
  Report snapshot() const override;
  Report finish() override;

 private:
  enum class St : std::uint8_t { signature, record, data, descriptor, after_end, stopped };
  enum class Rec : std::uint8_t { local, central, zip64_end, zip64_locator, end, signature_record };
  enum class Mode : std::uint8_t { stored, search, deflate, skip };

  // validator.cpp: the byte loop, record gathering, findings, memory.
  std::size_t step(const unsigned char* p, std::size_t n);
  std::size_t take_signature(const unsigned char* p, std::size_t n);
  std::size_t take_record(const unsigned char* p, std::size_t n);
  void on_signature(std::uint32_t sig);
  void on_record_fixed();
  void on_record();
  void add(Rule rule, std::string message, std::uint64_t at);
  void malformed(Rule rule, std::string message, std::uint64_t at);  // and stop walking
  void abort_with(std::string limit, std::string message, AbortKind kind = AbortKind::limit);
  bool charge(std::size_t bytes);  // hold(), or abort (zip-memory-budget)
  bool hold(std::size_t bytes) const;
  Progress progress() const;
  std::string_view name_of(const LocalEntry& e) const { return std::string_view(names_).substr(e.name_at, e.name_len); }

  // zp_local.cpp: a local header; the entry's name, flags, method and sizes.
  void on_local();
  bool read_local_extra(std::string_view extra, LocalEntry& e, std::uint64_t& csize, std::uint64_t& usize);
  void check_name(std::string_view name, std::uint64_t at, std::string_view where);
  std::optional<std::uint64_t> storage_hint(std::string_view name) const;

  // zp_entry.cpp: an entry's data and its data descriptor.
  void start_data();
  std::size_t take_data(const unsigned char* p, std::size_t n);
  std::size_t take_stored(const unsigned char* p, std::size_t n);
  std::size_t take_search(const unsigned char* p, std::size_t n);
  std::size_t take_deflate(const unsigned char* p, std::size_t n);
  void inflated_past_a_bound();
  void on_bomb(const std::string& what);
  void settle_inflate_step(const Inflater::Step& st, std::size_t input);
  std::size_t take_descriptor(const unsigned char* p, std::size_t n);
  void end_data();
  void entry_done();
  void check_entry_size(const LocalEntry& e);

  // zp_central.cpp: central-directory records against the local headers; the end records.
  void on_central();
  bool read_central_extra(std::string_view extra, CentralRecord& r);
  void compare_with_local(const CentralRecord& r, LocalEntry& l);
  void on_zip64_end();
  void on_zip64_locator();
  void on_end();

  // zp_end.cpp: end-of-input checks, the PyTorch archive, the summary.
  void add_end_of_input_findings();
  void check_pytorch_archive();
  void note_data_pkl(const LocalEntry& e);
  ZipSummary summary() const;
  std::size_t kept_heap_bytes() const;

  // zp_torchscript.cpp: a TorchScript archive (TS.torchscript) and its pickles' TorchScript
  // globals, judged when the archive ends.
  struct SettledGlobal {
    GlobalVerdict verdict;
    std::string reason;
  };
  using Settled = boost::unordered_flat_map<std::string, SettledGlobal, NameHash, std::equal_to<>>;
  void note_torchscript_entry(std::string_view name);
  void note_code_file();
  void settle_torchscript();
  void judge_deferred(const pickle::DeferredGlobal& g, Settled& settled);
  void note_script_class(const std::string& path);
  void apply_settled(const Settled& settled);  // what summary() copies, before it is made
  Report report() const;

  Limits limits_;
  MemoryBudget* budget_;
  mutable std::size_t budget_held_ = 0, memory_ = 0;  // hold(): reports charge their copies
  FindingList findings_;
  std::optional<Aborted> aborted_;
  St state_ = St::signature;
  std::uint64_t pos_ = 0;  // bytes consumed (the file position)
  bool finished_ = false;

  // The record being gathered.
  Rec rec_ = Rec::local;
  std::uint64_t rec_pos_ = 0;  // where its signature starts
  std::string buf_;
  std::size_t need_ = 0;
  bool fixed_done_ = false;
  unsigned char sig_[4]{};
  unsigned sig_have_ = 0;

  // Local headers streamed, and their names.
  std::vector<LocalEntry> locals_;
  std::string names_;
  boost::unordered_flat_map<std::uint64_t, std::uint32_t, OffsetHash> local_at_;

  // The entry whose data is streaming.
  LocalEntry cur_;
  Mode mode_ = Mode::stored;
  std::uint64_t left_ = 0;        // compressed bytes still to come (stored, deflate with known size, skip)
  std::uint64_t consumed_ = 0;    // compressed bytes of this entry so far
  bool sizes_known_ = false;      // bit 3 clear: the local header gave the sizes
  std::uint64_t declared_compressed_ = 0, declared_uncompressed_ = 0;
  DescriptorSearch search_;
  Inflater inflater_;
  bool inflate_failed_ = false;
  bool entry_over_ = false;        // the entry decompressed past Limits::zip.max_entry_bytes
  members::MemberContent content_;
  std::uint64_t inflated_total_ = 0;
  std::string desc_;               // a deflated entry's data descriptor being gathered
  std::size_t desc_need_ = 0;

  // Central directory and end records.
  bool in_central_ = false;
  std::uint64_t central_start_ = 0, central_records_ = 0, central_bytes_ = 0;
  boost::unordered_flat_set<std::string, NameHash> central_names_;
  boost::unordered_flat_set<std::string, NameHash> central_folded_;  // a PyTorch archive's names, case folded
  std::optional<std::uint64_t> zip64_end_at_;
  struct EndCounts {
    std::uint64_t entries = 0, cd_size = 0, cd_offset = 0;
  };
  std::optional<EndCounts> zip64_counts_;
  std::uint64_t end_at_ = 0, comment_end_ = 0;
  bool ended_ = false;             // the end record (and its comment) was read
  std::uint64_t trailing_ = 0;     // bytes after it
  bool zip64_ = false;

  // The PyTorch archive, as data.pkl describes it.
  std::optional<std::string> archive_;       // the folder of the first <folder>/data.pkl
  std::uint32_t data_pkls_ = 0;
  std::optional<bool> data_pkl_valid_;
  std::optional<std::vector<PickleStorage>> data_pkl_storages_;  // all summary() needs of data.pkl
  boost::unordered_flat_map<std::string, std::uint64_t, NameHash, std::equal_to<>> storage_bytes_;  // key -> bytes
  std::vector<ZipPickle> pickles_;
  std::uint64_t pickles_not_listed_ = 0;
  std::vector<NpySummary> arrays_;

  // TorchScript: where its first code/ or bytecode.pkl entry starts, its code files' names
  // (folded: PyTorch's reader finds them without case) and their entries, and the globals the
  // pickles left for the end.
  std::optional<std::uint64_t> torchscript_at_;
  std::string torchscript_archive_;
  bool bytecode_ = false;
  boost::unordered_flat_set<std::string, NameHash, std::equal_to<>> code_folded_;
  std::vector<std::uint32_t> code_entries_;  // indices into locals_
  pickle::DeferredGlobals deferred_;
  std::size_t deferred_charged_ = 0;
  std::vector<std::string> script_classes_;
  std::uint64_t script_classes_not_listed_ = 0;
  boost::unordered_flat_set<std::string, NameHash, std::equal_to<>> script_class_set_;
  bool settled_ = false;
  std::optional<KerasSummary> keras_;  // a .keras archive's config.json, the first one
};

}  // namespace tensorgate::detail::zip
