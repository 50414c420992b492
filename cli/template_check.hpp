#pragma once
// Chat template files (family CT; the kinds chat_template_file_kind() names). A .jinja file
// streams through the lexer in 1 MiB reads; a JSON file is read up to
// Limits::directory.max_json_bytes (one byte more tells it is larger).
#include <optional>
#include <string>
#include <string_view>

#include "tensorgate/chat_template.hpp"
#include "tensorgate/detect.hpp"
#include "tensorgate/report_writers.hpp"

namespace tensorgate::cli {

// A chat template file by its name, unless its content is a model file's or a Git LFS
// pointer's (a pickle named chat_template.jinja is checked as the pickle it is).
std::optional<ChatTemplateFileKind> template_file_kind(std::string_view name, Format content);

// The report of the file at `path` (named `name` in findings), or the I/O error in `error`.
std::optional<ChatTemplateFileReport> read_template_file(const std::string& path, const std::string& name,
                                                         ChatTemplateFileKind kind, const Limits& limits,
                                                         std::string& error);

// A template file given by itself (or found by a walk outside a model directory): its own entry,
// format "chat-template".
CheckedFile check_template_file(const std::string& path, ChatTemplateFileKind kind, const Limits& limits);

}  // namespace tensorgate::cli
