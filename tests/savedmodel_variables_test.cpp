// A SavedModel directory's variables/ (TF.variables): TensorFlow's own index and shard pass; an
// index built by hand in the table format TensorFlow writes refutes each misnamed, missing or
// short shard, and bytes that are no such table are refuted.
#include <gtest/gtest.h>

#include <string>

#include "test_data.hpp"
#include "tensorgate/savedmodel.hpp"
#include "wire_builder.hpp"

namespace {

using namespace tgtest::wire;
using tensorgate::SavedModelVariables;

std::string fixture(const std::string& name) {
  return tgtest::test_data("savedmodel/" + name);
}

struct Checked {
  tensorgate::SavedModelDirectorySummary summary;
  std::vector<tensorgate::Finding> findings;
};
Checked check(const SavedModelVariables& vars) {
  Checked c;
  c.summary = tensorgate::check_savedmodel_variables(vars, tensorgate::Limits{}, c.findings);
  return c;
}

// One block of entries with one restart point, and its trailer (uncompressed, crc not checked).
std::string block(const std::vector<std::pair<std::string, std::string>>& entries) {
  std::string b;
  for (const auto& [key, value] : entries) b += varint(0) + varint(key.size()) + varint(value.size()) + key + value;
  return b + le(0, 4) + le(1, 4);
}
// A table: one data block of the header and `variables` (shard, offset, size each), the index
// block pointing to it, the footer.
std::string table(std::uint64_t shards, const std::vector<std::tuple<std::string, std::uint64_t, std::uint64_t, std::uint64_t>>& variables) {
  std::vector<std::pair<std::string, std::string>> entries{{"", field_varint(1, shards) + field_varint(2, 0)}};
  for (const auto& [name, shard, offset, size] : variables)
    entries.emplace_back(name, field_varint(1, 1) + field_varint(3, shard) + field_varint(4, offset) + field_varint(5, size));
  const std::string data = block(entries);
  std::string file = data + std::string(5, '\0');
  const std::string index = block({{"zzz", varint(0) + varint(data.size())}});
  const std::uint64_t index_offset = file.size();
  file += index + std::string(5, '\0');
  std::string footer = varint(0) + varint(0) + varint(index_offset) + varint(index.size());
  footer.resize(40, '\0');
  return file + footer + le(0xdb4775248b80fb57ull, 8);
}

TEST(SavedModelVariables, TensorFlowsOwnIndexAndShardPass) {
  SavedModelVariables vars;
  vars.folder = true;
  vars.index = fixture("half_plus_two_tf2/variables/variables.index");
  vars.shards = {{"variables.data-00000-of-00001", fixture("half_plus_two_tf2/variables/variables.data-00000-of-00001").size()}};
  const Checked c = check(vars);
  EXPECT_TRUE(c.findings.empty()) << c.findings[0].message;
  EXPECT_EQ(c.summary.shards, 1u);
  EXPECT_GT(c.summary.variables, 0u);
  EXPECT_LE(c.summary.variable_bytes, 631u);
}

TEST(SavedModelVariables, EachShardNamedAndLongEnough) {
  SavedModelVariables vars;
  vars.index = table(2, {{"a", 0, 0, 8}, {"b", 1, 4, 8}});
  vars.shards = {{"variables.data-00000-of-00002", 8}, {"variables.data-00001-of-00002", 12}};
  EXPECT_TRUE(check(vars).findings.empty());

  vars.shards = {{"variables.data-00000-of-00002", 8}};
  Checked c = check(vars);
  ASSERT_EQ(c.findings.size(), 1u);
  EXPECT_EQ(c.findings[0].rule, tensorgate::Rule::tf_variables);
  EXPECT_NE(c.findings[0].message.find("1 missing, the first variables.data-00001-of-00002"), std::string::npos) << c.findings[0].message;

  vars.shards = {{"variables.data-00000-of-00002", 8}, {"variables.data-00001-of-00002", 11}};
  c = check(vars);
  ASSERT_EQ(c.findings.size(), 1u);
  EXPECT_NE(c.findings[0].message.find("variable \"b\" is read up to byte 12"), std::string::npos) << c.findings[0].message;

  vars.shards = {{"variables.data-00000-of-00002", 8}, {"variables.data-00001-of-00002", 12}, {"variables.data-00000-of-00001", 8}};
  c = check(vars);
  ASSERT_EQ(c.findings.size(), 1u);
  EXPECT_NE(c.findings[0].message.find("variables.data-00000-of-00001 is no shard of this index"), std::string::npos);
}

TEST(SavedModelVariables, AVariableInAShardPastTheCount) {
  SavedModelVariables vars;
  vars.index = table(1, {{"a", 3, 0, 8}});
  vars.shards = {{"variables.data-00000-of-00001", 8}};
  const Checked c = check(vars);
  ASSERT_EQ(c.findings.size(), 1u);
  EXPECT_NE(c.findings[0].message.find("in a shard past the index's 1"), std::string::npos) << c.findings[0].message;
}

TEST(SavedModelVariables, NoIndexOrNoTable) {
  SavedModelVariables vars;
  vars.shards = {{"variables.data-00000-of-00001", 8}};
  Checked c = check(vars);
  ASSERT_EQ(c.findings.size(), 1u);
  EXPECT_NE(c.findings[0].message.find("without variables.index"), std::string::npos);

  for (const std::string& bad : {std::string("not a table"), table(1, {}).substr(4), std::string(48, '\0')}) {
    vars.index = bad;
    c = check(vars);
    ASSERT_EQ(c.findings.size(), 1u);
    EXPECT_NE(c.findings[0].message.find("not a tensor bundle index"), std::string::npos) << c.findings[0].message;
  }
  vars = {};
  vars.graph_variables = 2;  // the graph creates variables, and nothing restores them
  c = check(vars);
  ASSERT_EQ(c.findings.size(), 1u);
  EXPECT_NE(c.findings[0].message.find("the graph creates 2 variables and there is no variables.index"), std::string::npos);
  vars = {};
  vars.index_too_large = true;
  EXPECT_EQ(check(vars).findings.size(), 1u);
  EXPECT_TRUE(check(SavedModelVariables{}).findings.empty());  // no variables at all
}

}  // namespace
