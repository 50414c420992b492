#include "openvino_weights.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <filesystem>

namespace tensorgate::cli {
namespace fs = std::filesystem;

OpenVinoWeightsFacts openvino_weights_at(const std::string& xml_path) {
  using Kind = OpenVinoWeightsFacts::Kind;
  const fs::path xml(xml_path);
  const std::string name = openvino_weights_name(xml.filename().string());
  const fs::path dir = xml.has_parent_path() ? xml.parent_path() : fs::path(".");
  const fs::path bin = dir / name;
  struct stat st {};
  if (::lstat(bin.c_str(), &st) != 0) return {Kind::missing, 0, name};
  if (S_ISLNK(st.st_mode)) {
    // Followed only to a file of the model's own directory (or below it).
    std::error_code target_ec, home_ec;
    const fs::path target = fs::canonical(bin, target_ec);
    const fs::path home = fs::canonical(dir, home_ec);
    if (target_ec || home_ec) return {Kind::outside, 0, name};  // a dangling link, or a loop
    const std::string t = target.string(), h = home.string() + (home.string().ends_with('/') ? "" : "/");
    if (!t.starts_with(h)) return {Kind::outside, 0, name};
    if (::stat(target.c_str(), &st) != 0) return {Kind::missing, 0, name};
  }
  if (!S_ISREG(st.st_mode)) return {Kind::missing, 0, name};
  return {Kind::regular, static_cast<std::uint64_t>(st.st_size), name};
}

void check_openvino_pair(Report& report, const std::string& xml_path, const Limits& limits) {
  if (!report.summary.get<OpenVinoSummary>()) return;
  check_openvino_weights(report, openvino_weights_at(xml_path), limits);
}

}  // namespace tensorgate::cli
