#include "report/kinds_text.hpp"

#include "common/printable.hpp"

namespace tensorgate::detail {
namespace {

std::string count(std::uint64_t n, std::string_view word) {
  return std::to_string(n) + " " + std::string(word) + (n == 1 ? "" : "s");
}

std::string pickle_facts(const PickleSummary& s) {
  std::string line = ", protocol " + std::to_string(s.protocol) + ", " + count(s.pickles, "pickle");
  if (s.legacy_torch) line += " (legacy torch.save)";
  std::uint64_t dangerous = 0, unknown = 0;
  for (const PickleGlobal& g : s.globals) {
    dangerous += g.verdict == GlobalVerdict::dangerous;
    unknown += g.verdict == GlobalVerdict::unknown;
  }
  line += ", " + count(s.globals.size() + s.globals_dropped, "global");
  if (dangerous || unknown) {
    line += " (";
    if (dangerous) line += std::to_string(dangerous) + " dangerous";
    if (dangerous && unknown) line += ", ";
    if (unknown) line += std::to_string(unknown) + " unknown";
    line += ")";
  }
  if (!s.tensors.empty()) line += ", " + count(s.tensors.size() + s.tensors_dropped, "tensor");
  return line;
}

}  // namespace

std::string kind_facts(const Report& r) {
  if (r.pickle) return pickle_facts(*r.pickle);
  if (r.zip) {
    const ZipSummary& z = *r.zip;
    std::string line = ", " + std::to_string(z.entries) + (z.entries == 1 ? " entry" : " entries");
    if (z.pytorch_archive) {
      line += ", PyTorch archive " + quoted(*z.pytorch_archive, 40);
      if (z.data_pkl_valid) line += *z.data_pkl_valid ? " (data.pkl clean)" : " (data.pkl INVALID)";
      line += ", " + count(z.storages.size() + z.storages_not_listed, "storage");
      if (const PickleSummary* state = pytorch_state(z); state && !state->tensors.empty())
        line += ", " + count(state->tensors.size() + state->tensors_dropped, "tensor");
    }
    if (!z.arrays.empty()) line += ", " + count(z.arrays.size(), "array");
    return line;
  }
  if (r.tar) {
    const TarSummary& t = *r.tar;
    std::string line = ", " + count(t.members, "member");
    if (t.torch_legacy) line += ", torch.load's legacy tar layout";
    if (!t.pickles.empty()) line += ", " + count(t.pickles.size() + t.pickles_not_listed, "pickle");
    return line;
  }
  if (r.npy) {
    std::string shape;
    for (const std::uint64_t d : r.npy->shape) shape += (shape.empty() ? "" : ", ") + std::to_string(d);
    return ", " + printable(r.npy->descr) + " (" + shape + ")" + (r.npy->object ? ", an object array (a pickle)" : "");
  }
  return {};
}

std::string other_files_line(const DirectorySummary& s) {
  if (s.other_files.empty()) return {};
  constexpr std::size_t kShown = 20;
  std::string line = "  no weights:";
  for (std::size_t i = 0; i < s.other_files.size() && i < kShown; ++i)
    line += (i ? ", " : " ") + printable(s.other_files[i].name);
  if (s.other_files.size() > kShown) line += ", and " + std::to_string(s.other_files.size() - kShown) + " more";
  return line + "\n";
}

}  // namespace tensorgate::detail
