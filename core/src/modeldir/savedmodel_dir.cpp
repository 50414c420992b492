// A TensorFlow SavedModel directory (it holds saved_model.pb): its variables/ against their
// index (TF.variables, by the savedmodel room's public check) and its assets/, in the summary.
#include "modeldir/dir_context.hpp"

namespace tensorgate::detail {

void check_savedmodel_directory(DirContext& ctx) {
  const std::optional<SavedModelVariables>& vars = ctx.dir().savedmodel;
  if (!vars) return;
  // The directory's findings list keeps its own cap: the check may produce up to that many.
  Limits limits;
  limits.savedmodel = ctx.savedmodel_limits();
  std::vector<Finding> found;
  ctx.summary.savedmodel = check_savedmodel_variables(*vars, limits, found);
  for (Finding& f : found) ctx.add(std::move(f));
}

}  // namespace tensorgate::detail
