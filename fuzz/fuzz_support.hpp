#pragma once
// Shared by the fuzz targets: a comparable rendering of a report, and an invariant check that
// names what broke (the campaign script keeps that line in the regression's note).
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "tensorgate/report.hpp"
#include "tensorgate/report_writers.hpp"
#include "tensorgate/validator.hpp"
#include <functional>
#include <memory>
#include <vector>

namespace tgfuzz {

// The report as JSON (tensor inventory included): equal renderings mean equal reports.
std::string render(const tensorgate::Report& report);

// Aborts with "INVARIANT <name>: <detail>" on stderr when `ok` is false.
void require(bool ok, std::string_view name, std::string_view detail = {});

// Invariants every report must satisfy, whatever the input. A snapshot (input not finished)
// has no canonical flag yet.
void check_report_invariants(const tensorgate::Report& report, bool finished = true);

// The chunking targets' input: byte 0 = number of cuts (mod 16), then two bytes per cut
// (little-endian position, modulo the file's size + 1), then the file.
struct Split {
  std::vector<std::size_t> cuts;  // ascending
  std::string_view file;
};
Split split_of(std::string_view input);

using ValidatorFactory = std::function<std::unique_ptr<tensorgate::Validator>()>;

// Feeds the file cut at the split's positions; `hint` announces the total size first,
// `skip_data` skips the rest once the validator only counts, and `in_place` reads each chunk
// into the validator's room where it offers one (Validator::prepare), as the CLI reads a file.
tensorgate::Report feed_chunked(const ValidatorFactory& make, const Split& s, bool hint, bool skip_data,
                                bool in_place = false);

// Feeds the file cut at the split's positions, but skips every run the validator offers not to
// look at (Validator::bytes_skippable), within the file, as the CLI seeks over raw data.
tensorgate::Report feed_skipping(const ValidatorFactory& make, const Split& s, bool hint);

// The chunking invariant: whole, cut, hinted, skipped (to the end, and every run offered) and
// read in place, the report is the same.
void check_chunking(const ValidatorFactory& make, const Split& s);

// A validator made with a shared memory budget (null: none).
using BudgetedFactory = std::function<std::unique_ptr<tensorgate::Validator>(tensorgate::MemoryBudget*)>;
// Under a budget of `capacity` bytes the report is the unbudgeted one or an `aborted` one of
// kind memory_budget, never another verdict, and every byte is given back once the validator
// (and the report's copy it charged) is gone.
// `unbudgeted` is the whole buffer's report without a budget, which the caller already has.
void check_budget_only_aborts(const BudgetedFactory& make, const Split& s, std::uint64_t capacity,
                              const tensorgate::Report& unbudgeted);

// The report writers on these entries: JSON and SARIF (with and without colour for the text)
// must parse, the text must be valid UTF-8, and each file report written a piece at a time
// (ReportFieldsWriter, pieces of `piece_bytes`) must be exactly the report written whole.
void check_writers(const std::vector<tensorgate::CheckedFile>& files, std::size_t piece_bytes = 1);
// Whether `s` is valid UTF-8 (control characters allowed).
bool valid_utf8(std::string_view s);

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace tgfuzz
