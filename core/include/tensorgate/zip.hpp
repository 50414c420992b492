#pragma once
// Zip archives (docs/rules.md, family ZP): PyTorch torch.save archives, .npz, .keras and others,
// walked in one pass and checked against their central directory. A report's summary is a ZipSummary.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tensorgate/keras.hpp"
#include "tensorgate/npy.hpp"
#include "tensorgate/limits.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/pickle.hpp"
#include "tensorgate/summary.hpp"

namespace tensorgate {

class Validator;
struct Report;

struct ZipEntryInfo {
  std::string name;                 // cut at 512 bytes for the summary
  std::uint16_t method = 0;         // 0 stored, 8 deflate
  std::uint64_t offset = 0;         // of its local header
  std::uint64_t compressed = 0;
  std::uint64_t uncompressed = 0;
  std::string content;              // "pickle", "npy" or "data"
};

// A pickle inside the archive (a *.pkl entry, or an entry that is a pickle by content).
struct ZipPickle {
  std::string entry;
  bool valid = false;               // no error among its own findings
  PickleSummary summary;
};

// A storage record of a PyTorch archive: data/<key>, with what data.pkl says of it.
struct ZipStorage {
  std::string key;
  std::string entry;                // "<archive>/data/<key>"; empty when the archive lacks it
  std::uint64_t bytes = 0;          // the entry's size
  std::string dtype;                // from data.pkl's persistent id; "" when it names no such storage
  std::uint64_t numel = 0;
  std::optional<std::uint64_t> data_offset;  // where a stored entry's bytes start in the archive
};

// A TorchScript archive (torch.jit.save): what the walk found of its code.
struct ZipTorchScript {
  std::string archive;                    // the folder of its first code/ or bytecode.pkl entry
  bool bytecode = false;                  // it holds <archive>/bytecode.pkl (the mobile format)
  std::vector<std::string> classes;       // the scripted classes its pickles name (__torch__.*), first seen first
  std::uint64_t classes_not_listed = 0;
  std::vector<std::string> code_files;    // its <archive>/code/**.py entries, in archive order
  std::uint64_t code_files_not_listed = 0;
};

struct ZipSummary {
  std::uint64_t entries = 0;        // central-directory entries
  bool zip64 = false;
  std::uint64_t central_directory_offset = 0;
  std::vector<ZipEntryInfo> entry_list;   // the first entries, in local-header order
  std::uint64_t entries_not_listed = 0;
  std::vector<ZipPickle> pickles;         // the first pickles scanned
  std::uint64_t pickles_not_listed = 0;
  // PyTorch archives: every entry under one folder, <archive>/data.pkl the state.
  std::optional<std::string> pytorch_archive;
  std::optional<bool> data_pkl_valid;
  std::vector<ZipStorage> storages;       // <archive>/data/<key> entries and data.pkl's storages
  std::uint64_t storages_not_listed = 0;
  std::vector<NpySummary> arrays;         // .npy entries (an .npz), the first ones
  std::optional<ZipTorchScript> torchscript;  // a TorchScript archive's code, or nothing
  std::optional<KerasSummary> keras;      // a .keras archive: its config.json
};
// How the reports write it (core/src/zip/report_json.cpp and report_text.cpp; tensorgate/summary.hpp).
const SummaryOps& summary_ops(const ZipSummary*);

std::unique_ptr<Validator> make_zip_validator(const Limits& limits = {}, MemoryBudget* budget = nullptr);
Report validate_zip(std::string_view bytes, const Limits& limits = {});

// A PyTorch archive's state dict: data.pkl's summary, or nothing.
const PickleSummary* pytorch_state(const ZipSummary& zip);
// The state dict a report's summary holds: a lone pickle's, a PyTorch archive's, or nothing.
const PickleSummary* torch_state(const Summary& summary);

}  // namespace tensorgate
