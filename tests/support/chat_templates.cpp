#include "chat_templates.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace tgtest {
namespace {

std::string rendered(const tensorgate::ChatTemplateFileReport& r) {
  std::string out = std::to_string(r.valid) + " " + std::to_string(r.findings_dropped) + "\n";
  for (const auto& f : r.findings)
    out += std::string(tensorgate::rule_info(f.rule).id) + " " + std::to_string(f.offset.value_or(~0ull)) + " " + f.message + "\n";
  return out;
}

tensorgate::ChatTemplateFileReport fed(std::string_view text, const std::vector<std::size_t>& cuts,
                                       const tensorgate::Limits& limits) {
  tensorgate::ChatTemplateFileCheck check("t.jinja", tensorgate::ChatTemplateFileKind::jinja, limits);
  std::size_t at = 0;
  for (const std::size_t cut : cuts) {
    check.feed(text.substr(at, cut - at));
    at = cut;
  }
  check.feed(text.substr(at));
  return check.finish();
}

}  // namespace

tensorgate::ChatTemplateFileReport check_jinja(std::string_view text, const tensorgate::Limits& limits) {
  const auto whole = fed(text, {}, limits);
  const std::string want = rendered(whole);
  std::vector<std::size_t> bytes, sevens;
  for (std::size_t i = 1; i < text.size(); ++i) {
    if (text.size() <= 4096) bytes.push_back(i);
    if (i % 7 == 0) sevens.push_back(i);
  }
  EXPECT_EQ(rendered(fed(text, bytes, limits)), want) << "byte by byte";
  EXPECT_EQ(rendered(fed(text, sevens, limits)), want) << "in 7-byte pieces";
  if (text.size() <= 512) {
    for (std::size_t cut = 1; cut < text.size(); ++cut) EXPECT_EQ(rendered(fed(text, {cut}, limits)), want) << "cut at " << cut;
  }
  return whole;
}

std::string ct_ids(const std::vector<tensorgate::Finding>& findings) {
  std::string out;
  for (const auto& f : findings) out += (out.empty() ? "" : " ") + std::string(tensorgate::rule_info(f.rule).id);
  return out;
}

bool any_error(const std::string& ids) {
  std::istringstream in(ids);
  std::string id;
  while (in >> id)
    for (const tensorgate::RuleInfo& r : tensorgate::all_rules())
      if (r.id == id && r.severity == tensorgate::Severity::error) return true;
  return false;
}

std::string template_data(const std::string& relative) {
  std::ifstream in(std::filesystem::path(TG_SOURCE_DIR) / "tests" / "data" / "chat_templates" / relative, std::ios::binary);
  EXPECT_TRUE(in) << relative;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> template_data_files(const std::string& directory) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(TG_SOURCE_DIR) / "tests" / "data" / "chat_templates" / directory))
    out.push_back(directory + "/" + e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace tgtest
