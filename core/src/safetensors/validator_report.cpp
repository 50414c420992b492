// SafetensorsValidator, second half: end of input, the facts about a valid file (canonical
// form, oldest reference version), the summary and the report.
#include <algorithm>

#include "common/report_of.hpp"
#include "common/saturating.hpp"
#include "modeldir/tinyllm_file.hpp"
#include "safetensors/st5_tiling.hpp"
#include "safetensors/stc_canonical.hpp"
#include "safetensors/validator.hpp"

namespace tensorgate::detail {
namespace {

std::string version_string(Version v) {
  return std::to_string(v.major) + "." + std::to_string(v.minor) + "." + std::to_string(v.patch);
}

}  // namespace

Report SafetensorsValidator::finish() {
  if (state_ != State::finished) {
    add_end_of_input_findings();
    state_ = State::finished;
    if (!aborted_ && understood_) add_convention_findings();
    if (!aborted_ && !findings_.has_errors() && understood_) add_valid_file_facts();
  }
  return snapshot();
}

void SafetensorsValidator::add_end_of_input_findings() {
  if (total_size_ && *total_size_ != bytes_seen_ && !aborted_) {
    aborted_ = Aborted{"size-mismatch", "the input ended after " + std::to_string(bytes_seen_) +
                                            " bytes, " + std::to_string(*total_size_) +
                                            " were announced"};
    return;
  }
  switch (state_) {
    case State::length:
      findings_.add(Rule::st1_too_short,
                    "the file has " + std::to_string(bytes_seen_) +
                        " bytes, fewer than the 8 of the header length", 0);
      break;
    case State::header:
      findings_.add(Rule::st1_truncated_header,
                    "the header needs bytes 8 to " + std::to_string(8 + n_) + ", the file has " +
                        std::to_string(bytes_seen_), 0);
      break;
    default:
      // After the header, whether or not its verdict is final: the data buffer is everything
      // after 8 + N, and the tensors' tiling says how long it must be.
      if (!end_checked_ && covered_) check_data_end(bytes_seen_ - 8 - n_, *covered_, 8 + n_, findings_);
      end_checked_ = true;
      break;
  }
}

// The tinyllm conventions (TL), as warnings, for a file whose metadata claims them: a lone file
// is held to them only that far (inside a model directory they are the directory's errors).
void SafetensorsValidator::add_convention_findings() {
  bool claims = false;
  for (std::size_t i = 0; i < table_->metadata_size() && !claims; ++i) {
    const auto [key, value] = table_->metadata(i);
    claims = (key == "format" && value == "tinyllm") || key == "quant";
  }
  if (!claims) return;  // only files that claim the conventions pay for an inventory
  check_tinyllm_file(inventory_of({}, !findings_.has_errors(), *table_), Severity::warning, {}, findings_);
}

void SafetensorsValidator::add_valid_file_facts() {
  canonical_ = check_canonical(*table_, object_end_, findings_);
  if (reference_rejects_) {
    findings_.add(Rule::stw_reference_version, "no version of the reference reader loads this file");
    return;
  }
  findings_.add(Rule::stw_reference_version,
                "the reference reader loads this file from version " + version_string(facts_.oldest));
}

// One pass over the tensors once the header is understood: what the summary and the version
// line need, computed once however often a report is taken.
SafetensorsValidator::HeaderFacts SafetensorsValidator::header_facts(
    const std::optional<ArchitectureGuess>& architecture) const {
  HeaderFacts f;
  std::array<DtypeTotals, kDtypeCount> totals{};
  for (const TensorTable::Record& r : table_->records()) {
    std::uint64_t elements = 1;
    for (const std::uint64_t d : r.shape()) elements *= d;  // exact: checked by ST4
    DtypeTotals& t = totals[r.dtype];
    t.dtype = static_cast<Dtype>(r.dtype);
    ++t.tensors;
    t.parameters = saturating_add(t.parameters, elements);
    t.bytes = saturating_add(t.bytes, r.end - r.begin);
  }
  for (const DtypeTotals& t : totals) {
    if (t.tensors == 0) continue;
    f.by_dtype.push_back(t);
    f.oldest = std::max(f.oldest, dtype_info(t.dtype).since);
  }
  f.architecture = architecture ? *architecture : guess_architecture(*table_);
  return f;
}

SafetensorsSummary SafetensorsValidator::summary() const {
  SafetensorsSummary s;
  s.header_length = n_;
  s.data_length = covered_.value_or(0);
  s.tensor_count = table_->size();
  s.by_dtype = facts_.by_dtype;
  for (const DtypeTotals& t : s.by_dtype) {
    s.parameters = saturating_add(s.parameters, t.parameters);
    s.bytes = saturating_add(s.bytes, t.bytes);
  }
  s.architecture = facts_.architecture.architecture;
  s.layers = facts_.architecture.layers;
  if (!reference_rejects_) s.min_reference_version = facts_.oldest;
  s.tensors = table_;
  return s;
}

Report SafetensorsValidator::snapshot() const {
  Report r = report_of(Format::safetensors, bytes_seen_, findings_, aborted_);
  r.canonical = canonical_;
  if (understood_ && !aborted_) r.summary = summary();
  return r;
}

}  // namespace tensorgate::detail

namespace tensorgate {

Report validate_safetensors(std::span<const std::byte> bytes, const Limits& limits) {
  return validate_whole(*make_safetensors_validator(limits), bytes);
}

Report validate_safetensors(std::string_view bytes, const Limits& limits) {
  return validate_whole(*make_safetensors_validator(limits), bytes);
}

}  // namespace tensorgate
