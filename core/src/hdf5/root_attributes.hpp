#pragma once
// The root group's attributes as the reader meets them: each one's summary row, and the value of
// those a check reads (Keras's model_config, training_config, keras_version and backend whole,
// the others' first bytes for a preview). A variable-length string's bytes are in a global heap
// collection read later in the file: the attribute waits for it.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hdf5/h5_format.hpp"
#include "tensorgate/hdf5.hpp"

namespace tensorgate::detail::hdf5 {

inline constexpr std::size_t kPreviewBytes = 64;

struct KeptAttribute {
  Hdf5Attribute row;
  std::string name;   // as stored (the row's is printable and cut)
  bool string = false;
  std::uint64_t elements = 0;  // more than one, or a 1-D shape: the preview shows the first as a list's
  bool listed = false;  // a row of the summary
  bool whole = false;  // `value` is the whole value (a name a check reads), not a preview's bytes
  std::string value;   // a string's bytes
  std::uint64_t offset = 0;  // where the value is in the file (a vlen string: its heap object, once read)
  std::optional<HeapRef> waiting;  // a vlen string whose heap object is still to be read
};

// Whether a check reads this attribute's whole value.
bool read_whole(std::string_view name);

// The row and kept value of a parsed attribute (`offset`: its value's file offset).
KeptAttribute keep(const Attribute& a, std::uint64_t offset, std::uint32_t offset_size);

// A waiting vlen string's heap object (the collection at `collection_offset` is whole).
Fault resolve(KeptAttribute& k, std::string_view object, std::uint64_t object_offset);

}  // namespace tensorgate::detail::hdf5
