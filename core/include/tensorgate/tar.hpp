#pragma once
// Tar archives (docs/rules.md, FK.tar-header, FK.tar-member): what torch.load opens first. Its
// legacy loader (before torch.save wrote zips) opens any file Python's tarfile accepts as a tar
// and unpickles the members "storages", "tensors" and "pickle"; tarfile needs no magic, only a
// first header whose checksum matches. Every member is scanned by its content, as a zip's
// entries are. A report's summary is a TarSummary.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tensorgate/npy.hpp"
#include "tensorgate/limits.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/pickle.hpp"
#include "tensorgate/zip.hpp"
#include "tensorgate/summary.hpp"

namespace tensorgate {

class Validator;
struct Report;

struct TarMemberInfo {
  std::string name;          // as tarfile names it (GNU long names and pax paths applied), cut at 512 bytes
  std::string type;          // "file", "directory", "symlink", "hardlink", "other"
  std::uint64_t offset = 0;  // of its first header block (pax and GNU long-name blocks included)
  std::uint64_t size = 0;    // of its data
  std::string content;       // "pickle", "npy", "data" or "none" (no data)
};

struct TarSummary {
  std::uint64_t members = 0;
  std::vector<TarMemberInfo> member_list;  // the first members, in archive order
  std::uint64_t members_not_listed = 0;
  // The members torch.load's legacy loader reads: storages, tensors and pickle.
  bool torch_legacy = false;
  std::vector<ZipPickle> pickles;          // the first pickles scanned ("entry" names the member)
  std::uint64_t pickles_not_listed = 0;
  std::vector<NpySummary> arrays;          // .npy members, the first ones
  std::uint64_t trailing_bytes = 0;        // after the block that ends the archive
};
// How the reports write it (core/src/tar/report_json.cpp and report_text.cpp; tensorgate/summary.hpp).
const SummaryOps& summary_ops(const TarSummary*);

std::unique_ptr<Validator> make_tar_validator(const Limits& limits = {}, MemoryBudget* budget = nullptr);

}  // namespace tensorgate
