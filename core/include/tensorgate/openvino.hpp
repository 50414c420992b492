#pragma once
// OpenVINO IR (docs/openvino.md, family OV): model.xml read with expat, entities refused, and
// its Const layers checked against the weights file beside it (model.bin, the same stem).
// The summary a file gets, the push validator, and the pair check the faces call once they have
// looked for the .bin.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tensorgate/limits.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/report.hpp"
#include "tensorgate/summary.hpp"

namespace tensorgate {

class Validator;

// One Const layer, as listed (Limits::openvino.max_listed_layers).
struct OpenVinoConst {
  std::string id, name;  // the name's first 256 bytes
  std::string element_type;
  std::vector<std::uint64_t> shape;  // its first 32 dimensions (rank says how many there are)
  std::uint64_t rank = 0;
  std::uint64_t offset = 0, size = 0;  // into the .bin
};

// Where a Const's bytes are, for the pair check: every Const of the model (bounded by
// Limits::openvino.max_layers), listed or not.
struct OpenVinoRange {
  std::uint64_t offset = 0, size = 0;
  std::uint64_t xml_offset = 0;  // the byte of model.xml where its layer begins (0: not known)
};

struct OpenVinoSummary {
  std::uint32_t ir_version = 0;
  std::string net_name;
  std::uint64_t layers = 0;  // bodies' layers included
  std::vector<std::pair<std::string, std::uint64_t>> layers_by_opset;  // by version attribute, sorted
  std::uint64_t consts = 0, const_bytes = 0;
  std::uint64_t weights_end = 0;               // the largest offset + size of a Const
  std::vector<std::string> element_types;       // used by layers' <data element_type>, sorted
  std::vector<std::string> custom_opsets;       // versions of no standard opset, sorted
  std::optional<std::uint64_t> bin_size;        // once the face found the .bin (check_openvino_weights)
  std::vector<OpenVinoConst> const_layers;      // listed, in file order
  std::uint64_t const_layers_not_listed = 0;
  std::vector<OpenVinoRange> ranges;            // not written in reports: for the pair check
};
// How the reports write it (core/src/openvino/report_json.cpp and report_text.cpp).
const SummaryOps& summary_ops(const OpenVinoSummary*);

std::unique_ptr<Validator> make_openvino_validator(const Limits& limits = {}, MemoryBudget* budget = nullptr);

// What the face that has the files finds where model.xml's weights must be: the file of the same
// stem with the extension .bin, beside it.
struct OpenVinoWeightsFacts {
  enum class Kind : unsigned char {
    regular,  // a regular file (or a link to one that stays in the model's directory)
    missing,  // absent, or no regular file
    outside,  // a symbolic link that leaves the model's directory
  };
  Kind kind = Kind::missing;
  std::uint64_t size = 0;  // a regular file's
  std::string name;        // as the messages say it ("model.bin")
};

// The pair: OV.weights-missing, OV.const for a Const past the .bin's end, OV.unused-bytes for
// bytes no Const covers; sets the summary's bin_size. Added within Limits::max_findings (an error
// makes the report invalid). Reports of other formats, and aborted ones, are left as they are.
void check_openvino_weights(Report& report, const OpenVinoWeightsFacts& weights, const Limits& limits = {});

// "model.bin" for "model.xml" (any name: its extension, if any, replaced by .bin).
std::string openvino_weights_name(std::string_view xml_name);

}  // namespace tensorgate
