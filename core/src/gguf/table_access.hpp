#pragma once
// The validator fills a GgufTensorTable in place (the table is shared with the summary).
#include "tensorgate/gguf.hpp"

namespace tensorgate {

class GgufTableBuilder {
 public:
  static GgufRecordList& records(GgufTensorTable& t) { return t.records_; }
  static std::vector<std::unique_ptr<char[]>>& name_blocks(GgufTensorTable& t) { return t.name_blocks_; }
};

}  // namespace tensorgate
