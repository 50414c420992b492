// A Keras directory: a model Keras saved unzipped (`model.save(path, zipped=False)`), which
// `keras.models.load_model` reads as it reads a .keras archive: config.json of Keras's shape,
// metadata.json, and the weights in model.weights.h5 (or .npz). Its config.json is judged as an
// archive's is (KR, through the keras room's walk) and its classes go in the summary; the
// weights file makes the model (dir_weights.cpp).
#include "keras/config_walk.hpp"
#include "modeldir/dir_context.hpp"

namespace tensorgate::detail {

// Keras's shape: the top object names its class and carries its config, and no Hugging Face
// model_type (a transformers config is never read by Keras).
bool is_keras_config(const boost::json::object& config) {
  const boost::json::value* class_name = config.if_contains("class_name");
  const boost::json::value* inner = config.if_contains("config");
  return class_name && class_name->is_string() && inner && inner->is_object() && !config.contains("model_type");
}

bool is_keras_directory(const DirContext& ctx) { return ctx.config && is_keras_config(*ctx.config); }

const FileInventory* keras_weights(const DirContext& ctx) {
  if (const FileInventory* h5 = ctx.weights_file("model.weights.h5")) return h5;
  return ctx.weights_file("model.weights.npz");
}

void check_keras_directory(DirContext& ctx) {
  if (!is_keras_directory(ctx)) return;
  // The walk keeps its own cap; its findings point into config.json, which the directory's
  // findings name in their message instead of an offset.
  FindingList found(ctx.max_findings());
  keras::ConfigWalk walk(ctx.keras_limits(), found, 0, "config.json: ", "config.json", true, ctx.policy());
  walk.feed(*ctx.dir().config_json);
  walk.finish();
  for (Finding& f : found.take()) {
    f.offset = std::nullopt;
    ctx.add(std::move(f));
  }
  ctx.summary.keras = walk.facts();
}

}  // namespace tensorgate::detail
