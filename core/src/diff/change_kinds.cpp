// The change-kind table (tensorgate/diff_kinds.def).
#include <array>

#include "tensorgate/diff.hpp"

namespace tensorgate {
namespace {

constexpr std::array<ChangeKindInfo, kChangeKindCount> kKinds = {{
#define TENSORGATE_CHANGE(e, id, help) {ChangeKind::e, id, help},
#include "tensorgate/diff_kinds.def"
#undef TENSORGATE_CHANGE
}};

}  // namespace

std::span<const ChangeKindInfo> change_kinds() { return kKinds; }

std::string_view change_kind_id(ChangeKind k) { return kKinds[static_cast<std::size_t>(k)].id; }

std::optional<ChangeKind> change_kind_from_id(std::string_view id) {
  for (const ChangeKindInfo& k : kKinds)
    if (k.id == id) return k.kind;
  return std::nullopt;
}

std::string_view matched_by_name(MatchedBy m) {
  switch (m) {
    case MatchedBy::name: return "name";
    case MatchedBy::name_map: return "name-map";
    case MatchedBy::pattern: return "pattern";
    case MatchedBy::content: return "content";
  }
  return "name";
}

}  // namespace tensorgate
