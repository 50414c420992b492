#pragma once
// Whether the first bytes of an input are a TensorFlow SavedModel file (kind/classify.cpp asks,
// before the ONNX probe: both begin with a varint field 1). saved_model.pb is a SavedModel:
// saved_model_schema_version 1 (08 01), then its first meta graph (field 2) whose own first
// field is one of MetaGraphDef's. keras_metadata.pb is Keras's SavedMetadata: its first object
// (field 1) names itself with an identifier of Keras's ("_tf_keras_model", "_tf_keras_layer",
// ...) before its metadata. Only the start is judged; the rest is the validator's.
#include <string_view>

namespace tensorgate::detail::savedmodel {

enum class ProbeVerdict { yes, no, undecided };

ProbeVerdict probe_savedmodel(std::string_view prefix, bool complete);

}  // namespace tensorgate::detail::savedmodel
