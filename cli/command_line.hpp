#pragma once
// How every `tensorgate` command that takes paths reads its arguments: the command's named
// options, and every other argument a "path" (check, diff, audit).
#include <boost/program_options.hpp>
#include <string>
#include <vector>

namespace tensorgate::cli {

// Stores `args` into the variables `named` binds; `named` must declare "help" and "path". --help
// prints `usage` to standard output and exits with status 0. A bad option throws
// boost::program_options::error, which the caller turns into its usage error.
void parse_command_line(const std::vector<std::string>& args, const boost::program_options::options_description& named,
                        const char* usage);

}  // namespace tensorgate::cli
