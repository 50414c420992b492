// The pair: model.xml's Const layers against the .bin the face found beside it
// (OV.weights-missing, OV.const, OV.unused-bytes). OpenVINO maps the whole .bin and reads each
// Const at its offset (ir_deserializer.cpp); its serializer writes the constants one after the
// other, sharing the bytes of equal ones (serialize.cpp's ConstantWriter), so every byte of a
// .bin it wrote is some Const's.
#include <algorithm>

#include "common/printable.hpp"
#include "tensorgate/openvino.hpp"

namespace tensorgate {
namespace {

std::string num(std::uint64_t v) { return std::to_string(v); }

void add(Report& report, const Limits& limits, Finding f) {
  if (f.severity == Severity::error) report.valid = false;
  if (report.findings.size() < limits.max_findings) report.findings.push_back(std::move(f));
  else ++report.findings_dropped;
}

}  // namespace

std::string openvino_weights_name(std::string_view xml_name) {
  const std::size_t slash = xml_name.find_last_of('/');
  const std::size_t dot = xml_name.find_last_of('.');
  const bool has_ext = dot != std::string_view::npos && (slash == std::string_view::npos || dot > slash + 1);
  return std::string(has_ext ? xml_name.substr(0, dot) : xml_name) + ".bin";
}

void check_openvino_weights(Report& report, const OpenVinoWeightsFacts& weights, const Limits& limits) {
  OpenVinoSummary* s = report.summary.get<OpenVinoSummary>();
  if (!s || report.aborted) return;
  const std::string bin = detail::quoted(weights.name, 80);
  if (weights.kind == OpenVinoWeightsFacts::Kind::outside) {
    add(report, limits, Finding{Rule::ov_weights_missing, Severity::error,
                                bin + " is a symbolic link that leaves the model's directory: weights that point outside are refused",
                                std::nullopt, std::nullopt});
    return;
  }
  if (weights.kind == OpenVinoWeightsFacts::Kind::missing) {
    if (s->ranges.empty()) return;  // no Const reads it: OpenVINO loads the model without one
    add(report, limits, Finding{Rule::ov_weights_missing, Severity::error,
                                "model.xml has " + num(s->ranges.size()) + " Const layers, and their weights file " + bin +
                                    " is not beside it (or is no regular file)",
                                std::nullopt, std::nullopt});
    return;
  }
  s->bin_size = weights.size;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> spans;  // [begin, end) within the file
  spans.reserve(s->ranges.size());
  for (const OpenVinoRange& r : s->ranges) {
    const std::uint64_t end = r.offset + r.size;  // the validator kept no range that overflows
    if (end > weights.size) {
      add(report, limits, Finding{Rule::ov_const, Severity::error,
                                  "a Const layer's weights end at byte " + num(end) + " (offset " + num(r.offset) + ", size " +
                                      num(r.size) + "), past the end of " + bin + " (" + num(weights.size) + " bytes)",
                                  r.xml_offset ? std::optional<std::uint64_t>(r.xml_offset) : std::nullopt, std::nullopt});
    }
    if (r.size > 0) spans.emplace_back(std::min(r.offset, weights.size), std::min(end, weights.size));
  }
  std::sort(spans.begin(), spans.end());
  std::uint64_t covered_to = 0, unused = 0, gaps = 0, first_gap = 0;
  for (const auto& [begin, end] : spans) {
    if (begin > covered_to) {
      if (gaps++ == 0) first_gap = covered_to;
      unused += begin - covered_to;
    }
    covered_to = std::max(covered_to, end);
  }
  if (weights.size > covered_to) {
    if (gaps++ == 0) first_gap = covered_to;
    unused += weights.size - covered_to;
  }
  if (unused > 0)
    add(report, limits, Finding{Rule::ov_unused_bytes, Severity::warning,
                                num(unused) + " bytes of " + bin + " (" + num(weights.size) + " bytes) in " + num(gaps) +
                                    (gaps == 1 ? " run" : " runs") + " are no Const layer's weights; the first run begins at byte " +
                                    num(first_gap),
                                std::nullopt, std::nullopt});
}

}  // namespace tensorgate
