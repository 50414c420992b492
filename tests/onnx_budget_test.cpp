// The ONNX validator's memory against the shared budget: what grows with the model (the summary's
// lists, the op counts and their index, the main graph's names) is charged as it grows, a refusal
// stops the check with Report::aborted "onnx-memory-budget" (a capacity answer, never a
// verdict), and every byte is given back when the validator goes.
#include <gtest/gtest.h>

#include <string>

#include "tensorgate/detect.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/onnx.hpp"
#include "tensorgate/report_writers.hpp"
#include "tensorgate/validator.hpp"
#include "wire_builder.hpp"

namespace {

using namespace tgtest::wire;
using tensorgate::CountingBudget;
using tensorgate::Report;

// A model of `n` initializers, each of a 1 KiB name and 4 bytes of raw data: ~1 KiB of summary each.
std::string many_initializers(int n) {
  std::string graph;
  for (int i = 0; i < n; ++i) {
    std::string name = std::to_string(i);
    name.resize(1024, '.');
    graph += field_len(5, field_varint(1, 1) + field_varint(2, 1) + field_len(8, name) + field_len(9, "abcd"));
  }
  return field_varint(1, 8) + field_len(8, field_varint(2, 13)) + field_len(7, graph);
}

// A model of `n` nodes, each of its own op type in a custom domain: op counts, their index and
// the warned domains grow with it.
std::string many_op_types(int n) {
  std::string graph;
  for (int i = 0; i < n; ++i)
    graph += field_len(1, field_len(2, "y" + std::to_string(i)) + field_len(4, "Op" + std::to_string(i) + std::string(200, 'x')) +
                              field_len(7, "com.example" + std::to_string(i)));
  return field_varint(1, 8) + field_len(8, field_varint(2, 13)) + field_len(7, graph);
}

Report check(const std::string& bytes, CountingBudget* budget) {
  auto v = tensorgate::make_onnx_validator({}, budget);
  return tensorgate::validate_whole(*v, bytes);
}

TEST(OnnxBudget, ASummaryPastTheBudgetAbortsWithoutAVerdict) {
  CountingBudget budget(2 << 20);
  const Report r = check(many_initializers(4000), &budget);  // ~4 MB of listed initializers
  ASSERT_TRUE(r.aborted);
  EXPECT_EQ(r.aborted->limit, "onnx-memory-budget");
  EXPECT_EQ(r.aborted->kind, tensorgate::AbortKind::memory_budget);
  EXPECT_FALSE(r.valid);
  EXPECT_EQ(r.summary.get<tensorgate::OnnxSummary>(), nullptr);
  EXPECT_EQ(budget.held(), 0u);  // all given back with the validator
  EXPECT_GE(budget.peak(), 1u << 20);
}

TEST(OnnxBudget, OpTypesAndTheirDomainsAreCharged) {
  CountingBudget budget(1 << 20);
  const Report r = check(many_op_types(4000), &budget);  // ~2 MB of op counts, keys and domains
  ASSERT_TRUE(r.aborted);
  EXPECT_EQ(r.aborted->limit, "onnx-memory-budget");
  EXPECT_EQ(budget.held(), 0u);
}

TEST(OnnxBudget, WithinTheBudgetTheReportIsTheUnbudgetedOne) {
  const std::string bytes = many_initializers(500);  // ~0.5 MB: the first mebibyte covers it and its report's copy
  CountingBudget budget(4 << 20);
  {
    auto v = tensorgate::make_onnx_validator({}, &budget);
    const Report r = tensorgate::validate_whole(*v, bytes);
    EXPECT_FALSE(r.aborted);
    EXPECT_EQ(tensorgate::report_json(r), tensorgate::report_json(check(bytes, nullptr)));
    EXPECT_GT(budget.held(), 0u);  // held while the validator (and the report's copy) lives
  }
  EXPECT_EQ(budget.held(), 0u);
}

TEST(OnnxBudget, ThroughDetectionTheSameLimitStopsIt) {
  CountingBudget budget(2 << 20);
  auto v = tensorgate::make_validator(tensorgate::FormatChoice::auto_detect, "model.onnx", {}, &budget);
  const Report r = tensorgate::validate_whole(*v, many_initializers(4000));
  EXPECT_EQ(r.format, tensorgate::Format::onnx);
  ASSERT_TRUE(r.aborted);
  EXPECT_EQ(r.aborted->limit, "onnx-memory-budget");
}

}  // namespace
