#include "members/member_content.hpp"

#include <zlib.h>

#include <cstring>

#include "pickle/opcodes.hpp"
#include "common/ascii_case.hpp"

namespace tensorgate::detail::members {
namespace {

constexpr std::string_view kHdf5Signature{"\x89HDF\r\n\x1a\n", 8};

enum class Probe : std::uint8_t { no, proto, plain };

bool ends_with_nocase(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && same_name_nocase(s.substr(s.size() - suffix.size()), suffix);
}

// PyTorch's reader (miniz, flags 0) finds entries by a name compared without ASCII case.
bool pickle_name(std::string_view name) { return ends_with_nocase(name, ".pkl") || ends_with_nocase(name, ".pickle"); }

// The first bytes as a pickle: PROTO 2-5 or any opcode (protocols 0 and 1 have no PROTO), then,
// over the bytes there are, no fault, and a STOP or 16 opcodes (or, for the whole entry, the
// end between two pickles).
Probe probe_pickle(std::string_view head, bool whole) {
  if (head.empty()) return Probe::no;
  const auto b0 = static_cast<unsigned char>(head[0]);
  const bool proto = b0 == pickle::op::PROTO;
  if (proto && (head.size() < 3 || static_cast<unsigned char>(head[1]) < 2 || static_cast<unsigned char>(head[1]) > 5))
    return Probe::no;
  if (!proto && (!pickle::op_info(b0).known() || b0 == pickle::op::STOP)) return Probe::no;
  FindingList scratch(8);
  pickle::Scanner probe(PickleLimits{}, pickle::ScanSite{&scratch, 0, true, {}}, nullptr);
  probe.feed(reinterpret_cast<const unsigned char*>(head.data()), head.size());
  // A fault after an import is still a pickle: a loader has run the import when it fails.
  if (probe.stopped()) return probe.importable_globals() > 0 ? (proto ? Probe::proto : Probe::plain) : Probe::no;
  const PickleSummary s = probe.summary();
  if (!(s.pickles > 0 || s.opcodes >= 16 || (whole && probe.between_pickles()))) return Probe::no;
  return proto ? Probe::proto : Probe::plain;
}

}  // namespace

MemberContent::MemberContent(const Limits& limits, FindingList& findings, MemoryBudget* budget, std::string_view noun)
    : limits_(limits), findings_(findings), budget_(budget), noun_(noun) {}

MemberContent::~MemberContent() = default;

void MemberContent::start(std::string_view name, std::uint64_t base, bool exact, bool crc_wanted, bool pickle) {
  site_ = pickle::ScanSite{&findings_, base, exact, std::string(noun_) + " " + quoted(name, 80) + ": ", deferred_,
                           limits_.policy};
  content_ = Content::undecided;
  head_.clear();
  crc_wanted_ = crc_wanted;
  crc_on_ = true;
  crc_ = static_cast<std::uint32_t>(crc32(0, nullptr, 0));
  size_ = 0;
  pickle_errors_ = 0;
  tentative_.reset();
  pickle_.reset();
  npy_.reset();
  code_.reset();
  operators_.reset();
  keras_.reset();
  hdf5_named_ = name == "model.weights.h5";
  hdf5_head_.clear();
  if (pickle || pickle_name(name)) begin(Content::pickle);
  else if (name == "config.json") begin(Content::keras_config);  // a .keras archive's model config
}

void MemberContent::read_operator_names() {
  operators_ = std::make_unique<torchscript::OperatorNames>(limits_.torchscript, findings_, limits_.max_findings, site_.base, site_.exact, site_.where);
}

void MemberContent::start_code(std::string_view name, std::uint64_t base, bool exact, bool crc_wanted) {
  start(name, base, exact, crc_wanted);
  content_ = Content::code;
  errors_before_ = findings_.error_count();
  code_ = std::make_unique<torchscript::CodeScanner>(limits_.torchscript,
                                                     torchscript::CodeSite{&findings_, base, exact, std::string(name)});
}

void MemberContent::begin(Content c, bool tentative) {
  content_ = c;
  errors_before_ = findings_.error_count();
  if (c == Content::pickle) {
    pickle::ScanSite site = site_;
    if (tentative) {
      tentative_.emplace(limits_.max_findings);
      site.findings = &*tentative_;
    }
    pickle_ = std::make_unique<pickle::Scanner>(limits_.pickle, std::move(site), budget_);
  }
  if (c == Content::npy) npy_ = std::make_unique<npy::NpyScanner>(limits_, site_, budget_);
  if (c == Content::keras_config)
    keras_ = std::make_unique<keras::ConfigWalk>(limits_.keras, findings_, site_.base, site_.where, "config.json", true,
                                                   limits_.policy);
  if (c == Content::data && !crc_wanted_) crc_on_ = false;
  const auto* p = reinterpret_cast<const unsigned char*>(head_.data());
  if (pickle_) pickle_->feed(p, head_.size());
  if (npy_) npy_->feed(p, head_.size());
  head_.clear();
}

void MemberContent::begin_probed(bool at_end) {
  switch (probe_pickle(head_, at_end)) {
    case Probe::proto: return begin(Content::pickle);
    case Probe::plain: return begin(Content::pickle, true);
    case Probe::no: return begin(Content::data);
  }
}

void MemberContent::decide(bool at_end) {
  if (head_.size() >= 6 && std::memcmp(head_.data(), "\x93NUMPY", 6) == 0) return begin(Content::npy);
  if (head_.size() < kProbeBytes && !at_end) {
    // Decided early when the first bytes already rule both out.
    const bool may_npy = std::memcmp(head_.data(), "\x93NUMPY", std::min<std::size_t>(head_.size(), 6)) == 0;
    const auto b0 = static_cast<unsigned char>(head_[0]);
    const bool may_pickle = pickle::op_info(b0).known() && b0 != pickle::op::STOP;
    if (may_npy || may_pickle) return;
    return begin(Content::data);
  }
  begin_probed(at_end);
}

void MemberContent::feed(const unsigned char* p, std::size_t n) {
  if (n == 0) return;
  size_ += n;
  if (hdf5_named_ && hdf5_head_.size() < kHdf5Signature.size())
    hdf5_head_.append(reinterpret_cast<const char*>(p), std::min(n, kHdf5Signature.size() - hdf5_head_.size()));
  if (content_ == Content::undecided) {
    // Only the probe's bytes are summed before the content is known: a data entry whose CRC
    // is not checked (stored, not a pickle) must not pay for it over the rest of the chunk.
    const std::size_t take = std::min(n, kProbeBytes - head_.size());
    if (crc_on_) crc_ = static_cast<std::uint32_t>(crc32_z(crc_, p, take));
    if (operators_) operators_->feed(p, take);
    head_.append(reinterpret_cast<const char*>(p), take);
    p += take;
    n -= take;
    decide(false);
    if (content_ == Content::undecided) return;
  }
  if (crc_on_) crc_ = static_cast<std::uint32_t>(crc32_z(crc_, p, n));
  if (pickle_) pickle_->feed(p, n);
  if (npy_) npy_->feed(p, n);
  if (code_) code_->feed(p, n);
  if (operators_) operators_->feed(p, n);
  if (keras_) keras_->feed(std::string_view(reinterpret_cast<const char*>(p), n));
}

void MemberContent::finish() {
  if (content_ == Content::undecided) {
    if (head_.empty()) begin(Content::data); else begin_probed(true);
  }
  if (pickle_) pickle_->finish();
  if (npy_) npy_->finish();
  if (code_) code_->finish();
  if (operators_) operators_->finish();
  if (keras_) keras_->finish();
  // Keras loads a .keras archive's weights with h5py: a model.weights.h5 that is no HDF5 file
  // fails to load (its content is judged as any member's: a pickle by content is still scanned).
  if (hdf5_named_ && hdf5_head_ != kHdf5Signature) {
    findings_.add(Rule::kr_weights_file, site_.where + "is named model.weights.h5 but does not begin with HDF5's signature: "
                                                       "Keras cannot load the archive's weights from it",
                  site_.base);
  }
  if (tentative_) settle_tentative();
  pickle_errors_ = findings_.error_count() - errors_before_;
}

// A stream without PROTO counts as a pickle once it touches a global (GLOBAL, STACK_GLOBAL,
// INST, EXT): only through one can a pickle run code, and a loader has run it even if the stream
// breaks later. A stream that never does was a coincidence of data bytes ("N." is a whole
// pickle, and two bytes of an fp16 weight), or a pickle that can do nothing: data either way.
void MemberContent::settle_tentative() {
  if (proven_pickle()) {
    std::uint64_t errors_listed = 0;
    for (const Finding& f : tentative_->items()) {
      errors_listed += f.severity == Severity::error;
      findings_.add(f);
    }
    findings_.add_dropped(tentative_->dropped(), tentative_->error_count() > errors_listed);
  } else {
    pickle_.reset();
    content_ = Content::data;
  }
  tentative_.reset();
}

std::optional<PickleSummary> MemberContent::pickle_summary() const {
  if (!pickle_) return std::nullopt;
  return pickle_->summary();
}

std::size_t MemberContent::pickle_summary_heap_bytes() const { return pickle_ ? pickle_->summary_heap_bytes() : 0; }

const std::vector<PickleStorage>* MemberContent::pickle_storages() const { return pickle_ ? &pickle_->storages() : nullptr; }

const KerasSummary* MemberContent::keras_summary() const { return keras_ ? &keras_->facts() : nullptr; }

std::optional<NpySummary> MemberContent::npy_summary() const {
  if (!npy_) return std::nullopt;
  return npy_->summary();
}

// A stream not yet shown to be a pickle (settle_tentative) that reached a capacity limit is
// data that ran as opcodes for a while (a run of NONE bytes), not a check left undone.
bool MemberContent::proven_pickle() const { return !tentative_ || pickle_->globals_seen() > 0; }

std::optional<Aborted> MemberContent::aborted() const {
  if (pickle_ && pickle_->aborted() && proven_pickle()) return pickle_->aborted();
  if (npy_) return npy_->aborted();
  return std::nullopt;
}

}  // namespace tensorgate::detail::members
