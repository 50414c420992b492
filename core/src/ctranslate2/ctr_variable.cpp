// CTR.variable: one variable's record (the loader's loop over num_variables in
// src/models/model.cc; the writer's _serialize in python/ctranslate2/specs/model_spec.py):
// its name, a uint8 rank and as many uint32 dimensions, then from version 4 a uint8 DataType id
// and a uint32 byte count, before version 4 a uint8 item size and a uint32 element count; then
// the data, which is counted and offered to the face to skip.
#include "common/printable.hpp"
#include "common/uint128.hpp"
#include "ctranslate2/dtypes.hpp"
#include "ctranslate2/validator.hpp"

namespace tensorgate::detail::ctranslate2 {
namespace {

constexpr std::uint32_t kMaxRank = 8;

std::string num(std::uint64_t v) { return std::to_string(v); }

std::uint32_t le32(const char* p) {
  return static_cast<std::uint32_t>(static_cast<unsigned char>(p[0])) |
         static_cast<std::uint32_t>(static_cast<unsigned char>(p[1])) << 8 |
         static_cast<std::uint32_t>(static_cast<unsigned char>(p[2])) << 16 |
         static_cast<std::uint32_t>(static_cast<unsigned char>(p[3])) << 24;
}

std::string shape_text(const std::vector<std::uint64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + num(shape[i]);
  return s + "]";
}

}  // namespace

void CTranslate2Validator::next_variable() {
  if (variables_read_ == summary_.variable_count) return after_variables();
  var_ = VariableRecord{pos_, {}, 0, {}, 0};
  expect(Step::name_length, 2);
}

void CTranslate2Validator::on_name() {
  var_.name = string_value(Rule::ctr_variable, "a variable's name");
  expect(Step::rank, 1);
}

void CTranslate2Validator::on_rank(std::uint32_t rank) {
  var_.rank = rank;
  if (rank > kMaxRank)
    fail(Rule::ctr_variable, "variable " + quoted(var_.name) + " has rank " + num(rank) + ", more than " + num(kMaxRank),
         var_.at, var_.name);
  expect(Step::dims, rank * 4);
}

void CTranslate2Validator::on_dims() {
  var_.shape.clear();
  var_.shape.reserve(var_.rank);  // at most 255: the rank is one byte
  for (std::uint32_t i = 0; i < var_.rank; ++i) var_.shape.push_back(le32(buf_.data() + 4 * i));
  expect(Step::dtype, 1);
}

void CTranslate2Validator::on_byte_count(std::uint32_t count) {
  const bool typed = summary_.binary_version >= 4;
  const auto dtype = typed ? dtype_of_id(var_.dtype) : dtype_of_item_size(var_.dtype);
  // Before version 4 the count is of elements, each of the item size the file gives.
  const std::uint64_t bytes = typed ? count : std::uint64_t{count} * var_.dtype;
  uint128 elements = 1;
  bool overflow = false;
  for (const std::uint64_t d : var_.shape) {
    elements *= d;
    overflow = overflow || elements > UINT64_MAX;
    if (overflow) elements = uint128{UINT64_MAX} + 1;  // saturated: no product of 255 dims wraps past it
  }
  const std::string name = quoted(var_.name);
  if (!dtype) {
    fail(Rule::ctr_variable,
         "variable " + name + " has " + (typed ? "dtype id " : "item size ") + num(var_.dtype) +
             (typed ? ", which is no DataType of CTranslate2 (0 to 5)" : ", which the loader maps to no type (4, 2 or 1)"),
         var_.at, var_.name);
  } else if (overflow || (typed ? elements * dtype->size != count : elements != count)) {
    const std::string expected = overflow ? "more than 2^64 elements"
                                          : typed ? num(static_cast<std::uint64_t>(elements * dtype->size)) + " bytes"
                                                  : num(static_cast<std::uint64_t>(elements)) + " elements";
    fail(Rule::ctr_variable,
         "variable " + name + " of shape " + shape_text(var_.shape) + " and " + std::string(dtype->name) + " is " + expected +
             ", its record says " + num(count) + (typed ? " bytes" : " elements") + ": CTranslate2 refuses a payload of the wrong size",
         var_.at, var_.name);
  }
  bool fresh = true;
  if (!keep_name(var_.name, fresh)) return;
  if (!fresh)
    fail(Rule::ctr_variable, "variable " + name + " is named twice: the loader keeps the first and drops this one", var_.at,
         var_.name);
  if (summary_.variables.size() < limits_.ctranslate2.max_listed_variables) {
    if (!hold(var_.name.size() + 8 * var_.shape.size() + sizeof(CTranslate2Variable))) return;
    summary_.variables.push_back(CTranslate2Variable{var_.name, dtype ? std::string(dtype->name) : "unknown", var_.shape,
                                                     pos_, bytes});
  } else {
    ++summary_.variables_not_listed;
  }
  summary_.total_bytes += bytes;
  if (!overflow) summary_.parameters += static_cast<std::uint64_t>(elements);
  data_at_ = pos_;
  data_left_ = bytes;
  step_ = Step::data;
  if (bytes == 0) on_data_end();
}

void CTranslate2Validator::on_data_end() {
  ++variables_read_;
  next_variable();
}

}  // namespace tensorgate::detail::ctranslate2
