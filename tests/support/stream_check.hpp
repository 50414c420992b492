#pragma once
// Validating bytes every way a caller may feed them, for the pickle scanner, the zip walker and
// format detection: the report is returned, and EXPECTs check that every other way gives the
// same one (without the size hint, in 7-byte pieces, byte by byte for small inputs, with the
// counted-only rest skipped, and with every run the validator does not look at skipped).
#include <string>
#include <string_view>

#include "chunked.hpp"
#include "tensorgate/limits.hpp"
#include "tensorgate/report.hpp"

namespace tgtest {

tensorgate::Report check_stream(const ValidatorFactory& make, std::string_view bytes);
// Fed `piece` bytes at a time, but every run the validator offers not to look at
// (bytes_skippable()) skipped instead, within the bytes; `skipped` adds up what was.
tensorgate::Report skipping_runs(const ValidatorFactory& make, std::string_view bytes, bool hint, std::size_t piece,
                                 std::uint64_t* skipped = nullptr);
tensorgate::Report check_pickle(std::string_view bytes, const tensorgate::Limits& limits = {});
// Through format detection, as `tensorgate check NAME` and /v1/validate?name=NAME see it.
tensorgate::Report check_detected(std::string_view name, std::string_view bytes, const tensorgate::Limits& limits = {});

// The ids of the findings of one severity, space-separated, in order (gguf_check.hpp's ids_of).
std::string errors_of(const tensorgate::Report& r);
std::string warnings_of(const tensorgate::Report& r);
// The message of the first finding with this id, or "".
std::string message_of(const tensorgate::Report& r, std::string_view id);

}  // namespace tgtest
