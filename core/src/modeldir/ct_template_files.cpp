// CT in a model directory: the findings of its chat template files (those
// chat_template_file_kind() names: *.jinja at any depth, chat_template.json and the
// *_config.json files at the top), judged file by file (core/src/chat_template/) by the face
// that read them. Their messages name the file and the place in it; the directory
// report gives no offsets (they are not the directory's).
#include "modeldir/dir_context.hpp"

namespace tensorgate::detail {

void check_chat_templates(DirContext& ctx) {
  for (const ChatTemplateFileReport& r : ctx.dir().chat_templates) {
    for (Finding f : r.findings) {
      f.offset.reset();
      ctx.add(std::move(f));
    }
    bool errors_kept = false;
    for (const Finding& f : r.findings) errors_kept = errors_kept || f.severity == Severity::error;
    ctx.findings().add_dropped(r.findings_dropped, !r.valid && !errors_kept);
    for (const ChatTemplateInfo& t : r.templates) ctx.summary.chat_templates.push_back(DirectoryTemplate{r.name, t});
  }
}

}  // namespace tensorgate::detail
