// audit_files: a conversion held in memory, validated and audited as `tensorgate audit` does it
// from disk (the directory's checks, each weights file's report, the GGUF's report).
#include <stdexcept>

#include "conversion_builder.hpp"
#include "memory_source.hpp"
#include "tensorgate/model_dir.hpp"
#include "tensorgate/validator.hpp"

namespace tgtest {

std::string AuditRun::ids() const {
  std::string out;
  for (const auto& f : report.findings) out += (out.empty() ? "" : " ") + std::string(tensorgate::rule_info(f.rule).id);
  return out;
}

std::string AuditRun::error_ids() const {
  std::string out;
  for (const auto& f : report.findings)
    if (f.severity == tensorgate::Severity::error)
      out += (out.empty() ? "" : " ") + std::string(tensorgate::rule_info(f.rule).id);
  return out;
}

bool AuditRun::has(const std::string& id) const {
  for (const auto& f : report.findings)
    if (tensorgate::rule_info(f.rule).id == id) return true;
  return false;
}

AuditRun audit_files(const std::map<std::string, std::string>& source, const std::string& gguf,
                     const tensorgate::Limits& limits) {
  return audit_files(source, gguf, limits, [](const std::string&, tensorgate::ByteSource& inner) { return &inner; });
}

AuditRun audit_files(const std::map<std::string, std::string>& source, const std::string& gguf,
                     const tensorgate::Limits& limits, const SourceWrap& wrap) {
  tensorgate::ModelDirectory md;
  std::map<std::string, tensorgate::Report> reports;
  std::map<std::string, MemorySource> bytes;
  for (const auto& [name, data] : source) {
    md.file_names.push_back(name);
    if (name == "config.json") md.config_json = data;
    if (name == "model.safetensors.index.json") md.index_json = data;
    if (!name.ends_with(".safetensors")) continue;
    const auto& r = reports.emplace(name, tensorgate::validate_safetensors(data)).first->second;
    md.weights.push_back(tensorgate::inventory_of(name, r));
    bytes.emplace(name, MemorySource(data));
  }
  const tensorgate::DirectoryReport dir = tensorgate::check_model_directory(md);
  tensorgate::AuditInput in;
  in.config_json = md.config_json;
  in.directory = &dir;
  for (const std::string& name : dir.summary.files)
    in.sources.push_back({name, &reports.at(name), wrap(name, bytes.at(name)), source.at(name).size()});
  const tensorgate::Report gguf_report = tensorgate::validate_gguf(gguf);
  MemorySource gguf_bytes(gguf);
  in.gguf = &gguf_report;
  in.gguf_bytes = wrap("model.gguf", gguf_bytes);
  in.gguf_file_size = gguf.size();
  return AuditRun{tensorgate::audit_conversion(in, limits)};
}

}  // namespace tgtest
