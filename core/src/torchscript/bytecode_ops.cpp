#include "torchscript/bytecode_ops.hpp"

#include "common/printable.hpp"
#include "torchscript/operators.hpp"

namespace tensorgate::detail::torchscript {
namespace {

bool ident(unsigned char b) {
  return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') || b == '_';
}

}  // namespace

void OperatorNames::feed(const unsigned char* p, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i, ++pos_) {
    const unsigned char b = p[i];
    if (in_op_) {
      if (ident(b) || b == '.') {
        if (op_.size() < run_max_) op_ += static_cast<char>(b);
        continue;
      }
      judge();
    }
    if (ident(b)) {
      if (colon_) {
        run_.clear();
        run_long_ = false;
      }
      colon_ = false;
      if (run_.size() >= run_max_) {
        run_.clear();
        run_long_ = true;
      }
      run_ += static_cast<char>(b);
      continue;
    }
    if (b == ':' && colon_) {
      in_op_ = true;
      colon_ = false;
      ns_ = run_long_ ? "(long)" + run_ : run_;
      op_.clear();
      at_ = pos_ - 1;
      run_.clear();
      run_long_ = false;
      continue;
    }
    colon_ = b == ':' && !run_.empty();
    if (!colon_) {
      run_.clear();
      run_long_ = false;
    }
  }
}

void OperatorNames::finish() {
  if (in_op_) judge();
  std::uint64_t errors_listed = 0;
  for (const Finding& f : own_.items()) {
    errors_listed += f.severity == Severity::error;
    findings_.add(f);
  }
  findings_.add_dropped(own_.dropped(), own_.error_count() > errors_listed);
}

void OperatorNames::judge() {
  in_op_ = false;
  std::string_view ns = ns_;
  if (!own_namespace(ns) && ns.size() > 1 && own_namespace(ns.substr(1))) ns.remove_prefix(1);  // a length byte
  std::string_view op = op_;
  if (ns == "aten" && !file_operator(op)) {
    // A memo opcode after the name: "from_fileq\n".
    for (std::size_t cut = 1; cut < op.size(); ++cut)
      if ((op[cut] == 'q' || op[cut] == 'r') && file_operator(op.substr(0, cut))) {
        op = op.substr(0, cut);
        break;
      }
  }
  if (ns.empty()) return;
  const auto said = judge_operator(ns, op);
  if (!said) return;
  own_.add(Rule::ts_code, where_ + "the bytecode names the operator " + quoted(std::string(ns) + "::" + std::string(op), 120) +
                                   *said + " (the lite interpreter runs it)",
                exact_ ? base_ + at_ : base_);
}

}  // namespace tensorgate::detail::torchscript
