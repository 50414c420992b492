// The end of the input: truncation (ZP.truncated), local headers the central directory does
// not list (ZP.central-missing), the PyTorch archive's shape (ZP.ambiguous-archive), and the
// summary.
#include <string>

#include "common/printable.hpp"
#include "pickle/summary_bytes.hpp"
#include "common/ascii_case.hpp"
#include "zip/validator.hpp"

namespace tensorgate {
namespace detail::zip {
namespace {

constexpr std::size_t kListedEntries = 4096;

std::string_view record_name(int rec) {
  static constexpr std::string_view kNames[] = {"a local header", "a central-directory record", "the zip64 end record",
                                                "the zip64 end locator", "the end record", "a digital signature record"};
  return kNames[rec];
}

}  // namespace

// <folder>/data.pkl (or data.pkl at the root, which no writer makes but a loader may read).
void ZipValidator::note_data_pkl(const LocalEntry& e) {
  const std::string_view name = name_of(e);
  const std::size_t slash = name.find('/');
  const bool top = same_name_nocase(name, "data.pkl") ||
                   (slash != std::string_view::npos && same_name_nocase(name.substr(slash + 1), "data.pkl"));
  if (!top) return;
  ++data_pkls_;
  if (archive_ || slash == std::string_view::npos) return;
  archive_ = std::string(name.substr(0, slash));
  data_pkl_valid_ = content_.pickle_valid();
  // Its storages (the copy, and a map of a key and a size each: less than the copy holds, in a
  // table less than twice as large), charged before they are made.
  const std::vector<PickleStorage>* storages = content_.pickle_storages();
  if (!storages || !charge(2 * pickle::heap_bytes(*storages))) return;
  data_pkl_storages_ = *storages;
  for (const PickleStorage& s : *data_pkl_storages_) storage_bytes_.emplace(s.key, s.bytes);
}

void ZipValidator::check_pytorch_archive() {
  if (data_pkls_ > 1)
    add(Rule::zp_ambiguous_archive, std::to_string(data_pkls_) + " entries are named data.pkl (compared without case, as PyTorch's reader finds it): two loaders can read two pickles", 0);
  if (!archive_) return;
  const std::string prefix = *archive_ + "/";
  std::uint64_t outside = 0;
  const LocalEntry* first = nullptr;
  for (const LocalEntry& e : locals_) {
    if (starts_with_nocase(name_of(e), prefix)) continue;
    if (!first) first = &e;
    ++outside;
  }
  if (first)
    add(Rule::zp_ambiguous_archive, std::to_string(outside) + " entries lie outside the archive folder " + quoted(*archive_, 80) +
                                        ", the first " + quoted(name_of(*first), 80) + ": PyTorch takes the folder of the first entry",
        first->offset);
}

void ZipValidator::add_end_of_input_findings() {
  if (state_ == St::stopped) return;
  if (state_ == St::signature && sig_have_ == 0 && !ended_) {
    add(Rule::zp_truncated, "the input ends at byte " + std::to_string(pos_) + " without an end-of-central-directory record", pos_);
  } else if (state_ == St::signature && sig_have_ > 0) {
    add(Rule::zp_truncated, "the input ends inside a record signature at byte " + std::to_string(rec_pos_), rec_pos_);
  } else if (state_ == St::record) {
    add(Rule::zp_truncated, "the input ends inside " + std::string(record_name(static_cast<int>(rec_))) + " at byte " +
                                std::to_string(rec_pos_),
        rec_pos_);
  } else if (state_ == St::data || state_ == St::descriptor) {
    add(mode_ == Mode::search ? Rule::zp_descriptor : Rule::zp_truncated,
        "the input ends inside the data of " + quoted(name_of(cur_), 80) + " (local header at byte " +
            std::to_string(cur_.offset) + ")" +
            (mode_ == Mode::search ? ": no data descriptor records the bytes since it began" : ""),
        cur_.offset);
  }
  if (!ended_) return;
  for (const LocalEntry& e : locals_) {
    if (e.listed) continue;
    add(Rule::zp_central_missing, quoted(name_of(e), 80) + " (local header at byte " + std::to_string(e.offset) +
                                      ") is in no central-directory entry: loaders do not read what scanners see",
        e.offset);
  }
  check_pytorch_archive();
}

// What summary() copies: the entry list (at most kListedEntries), the kept pickle summaries, and
// the storages (data/ entries and data.pkl's), approximately, by what they hold here.
std::size_t ZipValidator::kept_heap_bytes() const {
  const std::size_t listed = std::min<std::size_t>(locals_.size(), kListedEntries);
  std::size_t n = listed * (sizeof(ZipEntryInfo) + 512 + 32) + pickles_.size() * sizeof(ZipPickle);
  n += std::min<std::size_t>(code_entries_.size(), limits_.torchscript.max_listed) * (sizeof(std::string) + 512);
  for (const std::string& c : script_classes_) n += sizeof(std::string) + c.size();
  for (const ZipPickle& p : pickles_) n += 512 + pickle::heap_bytes(p.summary);
  if (archive_) {
    const std::size_t storages = std::min<std::size_t>(locals_.size() + (data_pkl_storages_ ? data_pkl_storages_->size() : 0),
                                                       limits_.pickle.max_storages);
    n += storages * (sizeof(ZipStorage) + 2 * 512 + 64);
  }
  return n;
}

ZipSummary ZipValidator::summary() const {
  ZipSummary s;
  s.entries = central_records_;
  s.zip64 = zip64_;
  s.central_directory_offset = central_start_;
  for (const LocalEntry& e : locals_) {
    if (s.entry_list.size() >= kListedEntries) {
      ++s.entries_not_listed;
      continue;
    }
    s.entry_list.push_back(ZipEntryInfo{std::string(name_of(e).substr(0, 512)), e.method, e.offset, e.compressed, e.uncompressed,
                                        e.content == members::Content::pickle        ? "pickle"
                                        : e.content == members::Content::npy         ? "npy"
                                        : e.content == members::Content::keras_config ? "keras_config"
                                        : e.content == members::Content::code         ? "code"
                                                                                      : "data"});
  }
  s.pickles = pickles_;
  s.pickles_not_listed = pickles_not_listed_;
  s.arrays = arrays_;
  s.keras = keras_;
  s.pytorch_archive = archive_;
  s.data_pkl_valid = data_pkl_valid_;
  if (torchscript_at_) {
    ZipTorchScript& ts = s.torchscript.emplace();
    ts.archive = torchscript_archive_;
    ts.bytecode = bytecode_;
    ts.classes = script_classes_;
    ts.classes_not_listed = script_classes_not_listed_;
    for (const std::uint32_t i : code_entries_) {
      if (ts.code_files.size() >= limits_.torchscript.max_listed) {
        ++ts.code_files_not_listed;
        continue;
      }
      ts.code_files.emplace_back(name_of(locals_[i]).substr(0, 512));
    }
  }
  if (archive_) {
    const std::string prefix = *archive_ + "/data/";
    boost::unordered_flat_map<std::string, std::size_t, NameHash, std::equal_to<>> by_key;
    for (const LocalEntry& e : locals_) {
      const std::string_view name = name_of(e);
      if (!name.starts_with(prefix)) continue;
      if (s.storages.size() >= limits_.pickle.max_storages) {
        ++s.storages_not_listed;
        continue;
      }
      by_key.emplace(std::string(name.substr(prefix.size())), s.storages.size());
      s.storages.push_back(ZipStorage{std::string(name.substr(prefix.size(), 512)), std::string(name.substr(0, 512)),
                                      e.uncompressed, "", 0,
                                      e.method == 0 ? std::optional(e.data_start) : std::nullopt});
    }
    if (data_pkl_storages_) {
      for (const PickleStorage& p : *data_pkl_storages_) {
        const auto it = by_key.find(p.key);
        if (it != by_key.end()) {
          s.storages[it->second].dtype = p.dtype;
          s.storages[it->second].numel = p.numel;
        } else if (s.storages.size() < limits_.pickle.max_storages) {
          s.storages.push_back(ZipStorage{p.key, "", 0, p.dtype, p.numel, std::nullopt});
        } else {
          ++s.storages_not_listed;
        }
      }
    }
  }
  return s;
}

}  // namespace detail::zip

const PickleSummary* pytorch_state(const ZipSummary& zip) {
  if (!zip.pytorch_archive) return nullptr;
  const std::string name = *zip.pytorch_archive + "/data.pkl";
  for (const ZipPickle& p : zip.pickles)
    if (p.entry == name) return &p.summary;
  return nullptr;
}

const PickleSummary* torch_state(const Summary& summary) {
  if (const PickleSummary* pickle = summary.get<PickleSummary>()) return pickle;
  if (const ZipSummary* zip = summary.get<ZipSummary>()) return pytorch_state(*zip);
  return nullptr;
}

}  // namespace tensorgate
