// TL: the tinyllm course conventions (docs/rules.md, TL): format tinyllm, int4 weights as
// qweight/scales pairs with quant int4-g<group>-sym; and MD's tokenizer rule. Inside a model
// directory that declares a tl_arch these are errors; a lone file gets them as warnings.
#include <algorithm>
#include <charconv>
#include <string_view>
#include <utility>

#include "modeldir/dir_context.hpp"
#include "modeldir/tinyllm_file.hpp"
#include "common/json_doc.hpp"
#include "common/printable.hpp"

namespace tensorgate {
namespace detail {

std::optional<std::uint64_t> int4_group(std::string_view quant) {
  constexpr std::string_view kPrefix = "int4-g", kSuffix = "-sym";
  if (!quant.starts_with(kPrefix) || !quant.ends_with(kSuffix) || quant.size() <= kPrefix.size() + kSuffix.size())
    return std::nullopt;
  const std::string_view digits = quant.substr(kPrefix.size(), quant.size() - kPrefix.size() - kSuffix.size());
  if (digits[0] == '0') return std::nullopt;
  std::uint64_t group = 0;
  const auto res = std::from_chars(digits.data(), digits.data() + digits.size(), group);
  if (res.ec != std::errc() || res.ptr != digits.data() + digits.size() || group == 0) return std::nullopt;
  return group;
}

namespace {

// The pairs of one file, without a config: both halves present, 2-D, U8 and F16, the same
// rows, and in = 2 * qweight columns = group * scales columns. Names are looked up in a sorted
// index, so a file of a million halves costs n log n, not n^2.
template <class Add>
void check_pairs(const FileInventory& f, std::optional<std::uint64_t> group, bool quant_present, const Add& add) {
  std::vector<std::pair<std::string_view, const InventoryTensor*>> index;
  for (const auto& t : f.tensors)
    if (t.name.ends_with(".qweight") || t.name.ends_with(".scales")) index.emplace_back(t.name, &t);
  if (index.empty()) return;
  std::sort(index.begin(), index.end());
  const auto find = [&](const std::string& name) -> const InventoryTensor* {
    const auto it = std::lower_bound(index.begin(), index.end(), std::pair<std::string_view, const InventoryTensor*>(name, nullptr));
    return it != index.end() && it->first == name ? it->second : nullptr;
  };
  for (const auto& t : f.tensors) {
    const bool qweight = t.name.ends_with(".qweight"), scales = t.name.ends_with(".scales");
    if (!qweight && !scales) continue;
    const std::string base = t.name.substr(0, t.name.size() - (qweight ? 8 : 7));
    const InventoryTensor* other = find(base + (qweight ? ".scales" : ".qweight"));
    if (!other) {
      add(Rule::tl_int4, std::string(qweight ? ".qweight" : ".scales") + " without its " + (qweight ? ".scales" : ".qweight"), t.name);
      continue;
    }
    if (!qweight) continue;  // the pair is checked once, from its qweight
    const InventoryTensor& s = *other;
    const bool shapes = t.shape.size() == 2 && s.shape.size() == 2 && t.shape[0] == s.shape[0];
    const bool sizes = shapes && (!group || s.shape[1] * *group == t.shape[1] * 2);
    if (t.dtype != "U8" || s.dtype != "F16" || !sizes)
      add(Rule::tl_int4, "qweight must be U8 [out, in/2] and scales F16 [out, in/group]" +
                             std::string(group ? " with group " + std::to_string(*group) : ""), t.name);
  }
  if (!quant_present) add(Rule::tl_quant, "int4 tensors without quant metadata int4-g<group>-sym", {});
}

}  // namespace

void check_tinyllm_directory(DirContext& ctx) {
  const auto tl_arch = string_field(*ctx.config, "tl_arch");
  if (!tl_arch) return;
  const bool file_tokenizer = string_field(*ctx.config, "tl_tokenizer") == std::optional<std::string>("file");
  if (file_tokenizer && !ctx.dir().has_tokenizer_json)
    ctx.add(Rule::md_tokenizer_missing, "config.json says tl_tokenizer is \"file\" but tokenizer.json is missing");
  if (!file_tokenizer && ctx.dir().has_tokenizer_json)
    ctx.add(Rule::md_tokenizer_unexpected, "tokenizer.json is present but config.json's tl_tokenizer is not \"file\"");
  for (const FileInventory* f : ctx.model_files) check_tinyllm_file(*f, Severity::error, f->name + ": ", ctx.findings());
}

void check_tinyllm_file(const FileInventory& f, Severity severity, std::string_view prefix, FindingList& out) {
  const auto add = [&](Rule rule, std::string message, std::string_view tensor) {
    out.add(rule, severity, std::string(prefix) + message, std::nullopt,
            tensor.empty() ? std::nullopt : std::optional<std::string_view>(tensor));
  };
  const auto format = f.metadata_value("format");
  if (format != std::optional<std::string>("tinyllm"))
    add(Rule::tl_format, format ? "metadata format is " + quoted(*format) + ", not \"tinyllm\""
                                : "metadata has no format \"tinyllm\"", {});
  const auto quant = f.metadata_value("quant");
  const auto group = quant ? int4_group(*quant) : std::nullopt;
  if (quant && !group) add(Rule::tl_quant, "quant " + quoted(*quant) + " is not int4-g<group>-sym", {});
  check_pairs(f, group, quant.has_value(), add);
}

}  // namespace detail
}  // namespace tensorgate
