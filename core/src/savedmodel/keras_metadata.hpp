#pragma once
// A Keras object's metadata (keras_metadata.pb, SavedObject.metadata): a JSON document with the
// object's class and config. Read with Boost.JSON's push parser, nothing kept but the class
// names it meets: a Lambda layer is found at any depth (a model's config nests its layers'),
// not only where the top-level class says so.
#include <cstdint>
#include <string>
#include <string_view>

namespace tensorgate::detail::savedmodel {

struct KerasMetadataFacts {
  bool json = false;        // the text is one JSON document
  std::string error;        // why not
  std::string class_name;   // the top-level "class_name", cut at 256 bytes
  bool lambda = false;      // a "class_name": "Lambda" anywhere
};

KerasMetadataFacts scan_keras_metadata(std::string_view text, std::uint32_t max_depth);

}  // namespace tensorgate::detail::savedmodel
