#pragma once
// CTranslate2 models (docs/ctranslate2.md, family CTR): model.bin, binary versions 1 to 6, as
// CTranslate2's loader reads it (src/models/model.cc): the binary version, from version 2 the
// spec name and revision, the variables (name, dims, dtype, bytes) and from version 3 the
// aliases. The reader (core/src/ctranslate2) reads the records once and in order; the
// variables' data is skipped. The summary a file gets, and the push validator.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tensorgate/limits.hpp"
#include "tensorgate/memory_budget.hpp"
#include "tensorgate/summary.hpp"

namespace tensorgate {

class Validator;

// One variable: its data is `bytes` bytes from file offset `offset`.
struct CTranslate2Variable {
  std::string name;
  std::string dtype;                 // "float32", "int8", "int16", "int32", "float16", "bfloat16"; "unknown" when not one
  std::vector<std::uint64_t> shape;  // empty: a scalar
  std::uint64_t offset = 0;          // of its first data byte
  std::uint64_t bytes = 0;           // as the record says
};

// An alias: `name` stands for the variable (or earlier alias) `target`.
struct CTranslate2Alias {
  std::string name;
  std::string target;
};

struct CTranslate2Summary {
  std::uint32_t binary_version = 0;
  std::string spec_name;           // "" in version 1, which has none (CTranslate2 then took TransformerSpec)
  std::uint32_t spec_revision = 0;  // 1 in version 1, as the loader assumes
  std::uint64_t variable_count = 0;  // as the file announces it
  std::vector<CTranslate2Variable> variables;  // read, in file order (Limits::ctranslate2.max_listed_variables)
  std::uint64_t variables_not_listed = 0;
  std::uint64_t alias_count = 0;  // as the file announces it (0 before version 3)
  std::vector<CTranslate2Alias> aliases;  // read, in file order (the same bound)
  std::uint64_t aliases_not_listed = 0;
  std::uint64_t total_bytes = 0;  // of the variables' data read
  std::uint64_t parameters = 0;   // elements of the variables read
};
// How the reports write it (core/src/ctranslate2/report_json.cpp and report_text.cpp; tensorgate/summary.hpp).
const SummaryOps& summary_ops(const CTranslate2Summary*);

std::unique_ptr<Validator> make_ctranslate2_validator(const Limits& limits = {}, MemoryBudget* budget = nullptr);

}  // namespace tensorgate
