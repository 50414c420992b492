#pragma once
// TL for one weights file: the tinyllm conventions a file can be held to on its own (metadata
// format "tinyllm", quant int4-g<group>-sym, int4 weights as .qweight/.scales pairs). Inside a
// model directory that declares a tl_arch they are errors (tinyllm_checks.cpp); a lone
// safetensors file that claims the conventions gets them as warnings from its own validator
// (safetensors/validator_report.cpp), so every face reports them alike.
#include <string_view>

#include "common/finding_list.hpp"
#include "tensorgate/model_dir.hpp"

namespace tensorgate::detail {

// Adds the file's TL findings at `severity`, each message after `prefix` ("model.safetensors: ").
void check_tinyllm_file(const FileInventory& file, Severity severity, std::string_view prefix,
                        FindingList& out);

}  // namespace tensorgate::detail
