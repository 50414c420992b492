#include "onnx/operators.hpp"

#include <algorithm>
#include <array>

namespace tensorgate::detail::onnx {
namespace {

constexpr OperatorInfo kOperators[] = {
#define TG_ONNX_OPERATOR(domain, op_type, since, deprecated) {domain, op_type, since, deprecated},
#include "onnx/operators.def"
#undef TG_ONNX_OPERATOR
};

constexpr bool by_name(const OperatorInfo& a, const OperatorInfo& b) {
  return std::pair(a.domain, a.op_type) < std::pair(b.domain, b.op_type);
}
// The generator writes the rows sorted by domain, then op type: a binary search finds one.
static_assert(std::is_sorted(std::begin(kOperators), std::end(kOperators), by_name), "operators.def must be sorted");

std::string_view table_domain(std::string_view domain) { return domain.empty() ? "ai.onnx" : domain; }

}  // namespace

bool has_operator_table(std::string_view domain) {
  const std::string_view d = table_domain(domain);
  return d == "ai.onnx" || d == "ai.onnx.ml" || d == "ai.onnx.preview.training";
}

const OperatorInfo* find_operator(std::string_view domain, std::string_view op_type) {
  const auto key = std::pair(table_domain(domain), op_type);
  const auto* it = std::lower_bound(std::begin(kOperators), std::end(kOperators), key, [](const OperatorInfo& o, const auto& k) {
    return std::pair(o.domain, o.op_type) < k;
  });
  return it != std::end(kOperators) && it->domain == key.first && it->op_type == key.second ? it : nullptr;
}

}  // namespace tensorgate::detail::onnx
