#pragma once
// What a zip entry's name makes of it in a TorchScript archive: <archive>/code/... (TorchScript
// source, its .debug_pkl source maps, the code of the classes a module's objects belong to) and
// <archive>/bytecode.pkl (the mobile interpreter's program) mark an archive torch.jit.save (or
// _save_for_lite_interpreter) wrote. Names are compared without ASCII case, as PyTorch's reader
// finds them.
#include <string_view>

namespace tensorgate::detail::torchscript {

enum class EntryRole : unsigned char {
  none,      // nothing of TorchScript
  code,      // <archive>/code/**.py: a code file, lexed (TS.code, TS.code-lex)
  marker,    // another entry under <archive>/code/ (a .debug_pkl, a directory)
  bytecode,  // <archive>/bytecode.pkl: the mobile program, its operator names read (TS.code)
};

EntryRole entry_role(std::string_view name);

// The archive folder of an entry name (what precedes its first '/'), or empty.
std::string_view archive_folder(std::string_view name);

}  // namespace tensorgate::detail::torchscript
