#pragma once
#include <string>

#include "tensorgate/detect.hpp"
#include "tensorgate/limits.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate::cli {

// Validates one file ("-" is standard input) in bounded chunks: the header is read, the data
// of a regular file is skipped by its size (a 100 GB file costs what a 1 MB one does), and a
// pipe is read to its end and counted. The format is chosen as make_validator() does, by the
// file's name and first bytes unless `format` says otherwise.
// `budget` (the CLI's --memory-budget) is charged for what the validator holds; past it the
// check is aborted (exit status 2), never killed for memory.
CheckedFile check_file(const std::string& path, const Limits& limits,
                       FormatChoice format = FormatChoice::auto_detect, MemoryBudget* budget = nullptr);

// --memory-budget's default: 1 GiB. The hub clients refuse headers above 25 MB, and the densest
// header (entries of a few bytes) parses into ~11x its size: 275 MB; the largest legal header
// (100,000,000 bytes) of real-shaped entries took 1.8x (1,000,000 tensors: 168 MB peak). Only a
// hostile 100 MB header of tiny entries (~1.1 GB) is past it.
inline constexpr std::uint64_t kDefaultCliMemoryBudget = 1ull << 30;

}  // namespace tensorgate::cli
