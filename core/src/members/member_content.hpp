#pragma once
// What an archive member's bytes are (a zip entry's, uncompressed, or a tar member's), and the
// scanner that reads them: every *.pkl (and *.pickle) member, and any member that is a pickle
// by content, goes through the pickle scanner; a .npy array (an .npz's entries) through the .npy
// scanner; a top-level config.json (a .keras archive's) through the Keras config walk; anything
// else is data, counted.
// Pickles are named by ASCII case-folded suffix, as PyTorch's reader finds them. "A pickle by
// content": PROTO 2-5, or any opcode (protocols 0 and 1 have no PROTO), then, within the first
// 512 bytes, a STOP or 16 opcodes without a fault (tensor data fails this within a few bytes).
// Without PROTO the stream is judged tentatively, its findings kept apart, and it counts as a
// pickle only once it touches a global (the only way a pickle runs code); else it was data. The CRC-32 is computed for the entries read as pickles or arrays and for
// deflated entries (never for raw tensor storages).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "common/printable.hpp"
#include "keras/config_walk.hpp"
#include "npy/scanner.hpp"
#include "pickle/scanner.hpp"
#include "torchscript/bytecode_ops.hpp"
#include "torchscript/code_lexer.hpp"

namespace tensorgate::detail::members {

// code: a TorchScript code file (a zip's <archive>/code/**.py), read by the TorchScript lexer.
enum class Content : std::uint8_t { undecided, pickle, npy, keras_config, data, code };

inline constexpr std::size_t kProbeBytes = 512;

class MemberContent {
 public:
  // `noun`: what messages call a member ("entry" in a zip, "member" in a tar).
  MemberContent(const Limits& limits, FindingList& findings, MemoryBudget* budget, std::string_view noun = "entry");
  ~MemberContent();

  // A new member. `base`: the file offset of its first data byte when `exact` (stored), or of
  // its header (deflated: the offsets of its bytes are in the decompressed stream).
  // `pickle`: a loader unpickles the member whatever its name and first bytes (a legacy tar's
  // "pickle" member).
  void start(std::string_view name, std::uint64_t base, bool exact, bool crc_wanted, bool pickle = false);
  // A new member that is a TorchScript code file (torchscript/entry_names.hpp): lexed, not probed.
  void start_code(std::string_view name, std::uint64_t base, bool exact, bool crc_wanted);
  // The member just started is a mobile archive's bytecode.pkl: its operator names are read too
  // (torchscript/bytecode_ops.hpp).
  void read_operator_names();
  // The pickles of the members from now on leave TorchScript's globals here (a zip's walker
  // judges them when the archive ends; pickle/torchscript_globals.hpp).
  void defer_torchscript_globals(pickle::DeferredGlobals* deferred) { deferred_ = deferred; }
  void feed(const unsigned char* p, std::size_t n);
  void finish();  // the entry's data has ended

  Content content() const { return content_; }
  bool crc_computed() const { return crc_on_; }
  std::uint32_t crc() const { return crc_; }
  std::uint64_t size() const { return size_; }
  bool pickle_valid() const { return pickle_errors_ == 0; }
  std::optional<PickleSummary> pickle_summary() const;
  std::size_t pickle_summary_heap_bytes() const;  // what a copy of pickle_summary() holds
  const std::vector<PickleStorage>* pickle_storages() const;  // pickle_summary()->storages, uncopied
  std::optional<NpySummary> npy_summary() const;
  const KerasSummary* keras_summary() const;  // a .keras archive's config.json
  std::optional<Aborted> aborted() const;

 private:
  void decide(bool at_end);
  void begin(Content c, bool tentative = false);
  void begin_probed(bool at_end);
  void settle_tentative();
  bool proven_pickle() const;

  Limits limits_;
  FindingList& findings_;
  MemoryBudget* budget_;
  std::string_view noun_;
  pickle::ScanSite site_;
  Content content_ = Content::undecided;
  std::string head_;  // the first bytes, while undecided
  bool crc_on_ = false, crc_wanted_ = false;
  std::uint32_t crc_ = 0;
  std::uint64_t size_ = 0;
  std::uint64_t errors_before_ = 0, pickle_errors_ = 0;
  std::optional<FindingList> tentative_;  // a pickle without PROTO: its findings, until it proves one
  std::unique_ptr<pickle::Scanner> pickle_;
  std::unique_ptr<npy::NpyScanner> npy_;
  std::unique_ptr<torchscript::CodeScanner> code_;
  std::unique_ptr<torchscript::OperatorNames> operators_;
  pickle::DeferredGlobals* deferred_ = nullptr;
  std::unique_ptr<keras::ConfigWalk> keras_;
  // A .keras archive's model.weights.h5: its first bytes, which must be HDF5's signature.
  bool hdf5_named_ = false;
  std::string hdf5_head_;
};

}  // namespace tensorgate::detail::members
