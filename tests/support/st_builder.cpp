#include "st_builder.hpp"

#include "tensorgate/validator.hpp"

namespace tgtest {

std::string st_file_n(std::uint64_t n, std::string_view header, std::string_view data) {
  std::string out;
  for (int i = 0; i < 8; ++i) out += static_cast<char>((n >> (8 * i)) & 0xff);
  out += header;
  out += data;
  return out;
}

std::string plain_file(int n) {
  std::string h = "{";
  for (int i = 0; i < n; ++i)
    h += (i ? ",\"t" : "\"t") + std::to_string(i) + R"(":{"dtype":"U8","shape":[1],"data_offsets":[)" +
         std::to_string(i) + "," + std::to_string(i + 1) + "]}";
  return st_file(h + "}", std::string(static_cast<std::size_t>(n), '\0'));
}

std::string st_file(std::string_view header, std::string_view data, bool pad) {
  std::string h(header);
  if (pad) h.append((8 - h.size() % 8) % 8, ' ');
  return st_file_n(h.size(), h, data);
}

tensorgate::Report check(std::string_view bytes) { return tensorgate::validate_safetensors(bytes); }

std::string ids(const tensorgate::Report& r) {
  std::string out;
  for (const auto& f : r.findings) {
    if (!out.empty()) out += ' ';
    out += tensorgate::rule_info(f.rule).id;
  }
  return out;
}

std::string error_ids(const tensorgate::Report& r) {
  std::string out;
  for (const auto& f : r.findings) {
    if (f.severity != tensorgate::Severity::error) continue;
    if (!out.empty()) out += ' ';
    out += tensorgate::rule_info(f.rule).id;
  }
  return out;
}

}  // namespace tgtest
