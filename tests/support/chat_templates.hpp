#pragma once
// Test-side chat template helpers: judge a template every way a caller may feed it, list rule
// ids, read the templates under tests/data/chat_templates/.
#include <string>
#include <string_view>
#include <vector>

#include "tensorgate/chat_template.hpp"

namespace tgtest {

// The findings of one .jinja file holding `text`, fed whole; checks with EXPECTs that every way
// of cutting it (byte by byte, 7-byte pieces, each single cut of short texts) gives the same.
tensorgate::ChatTemplateFileReport check_jinja(std::string_view text, const tensorgate::Limits& limits = {});

// The rule ids of the findings, space-separated, in order; "" for none.
std::string ct_ids(const std::vector<tensorgate::Finding>& findings);
inline std::string ct_ids(std::string_view text) { return ct_ids(check_jinja(text).findings); }

// Whether any of the space-separated rule ids is an error by default.
bool any_error(const std::string& ids);

// A file of tests/data/chat_templates/ (TG_SOURCE_DIR), e.g. "benign/llama3.jinja".
std::string template_data(const std::string& relative);
std::vector<std::string> template_data_files(const std::string& directory);

}  // namespace tgtest
