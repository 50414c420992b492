#pragma once
// How every `tensorgate` command that takes paths reads its arguments (check, diff, audit): the
// command's named options, each bound to the variable it sets, and every other argument a path.
//
// glibc's getopt_long does the reading (GNU conventions: --name VALUE, --name=VALUE, unambiguous
// abbreviations, -j4, options after paths, -- ends the options). It replaced
// Boost.program_options here, whose option objects and iostream set-up were ~8% of a small
// file's whole check (bench/README.md); the service keeps program_options for its
// configuration file.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace tensorgate::cli {

// A command line the command cannot run. The message names the option, never quotes its value
// (a --header value is a credential more often than not).
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class OptionTable {
 public:
  // What an option sets: a switch (no value), a text, a text per occurrence, a whole number
  // (digits only), or a decimal number of seconds.
  using Target = std::variant<bool*, std::string*, std::vector<std::string>*, unsigned*, std::uint64_t*, double*>;

  // --NAME, and -SHORT where given. Every option but a list may be given once.
  OptionTable& add(const char* name, Target to, char short_name = 0);

  struct Option {
    const char* name;
    char short_name;
    Target to;
  };

 private:
  friend std::vector<std::string> parse_command_line(const std::vector<std::string>&, const OptionTable&, const char*);
  std::vector<Option> options_;
};

// Stores `args` into the variables `options` binds and returns the other arguments, in order.
// --help or -h prints `usage` to standard output and exits with status 0. Throws UsageError.
// Not reentrant (getopt_long's state is global): one parse at a time.
std::vector<std::string> parse_command_line(const std::vector<std::string>& args, const OptionTable& options,
                                            const char* usage);

// A refused command line, as GNU tools answer one: "tensorgate COMMAND: MESSAGE", the synopsis
// (the lines of `usage` up to its description) and where the rest is, on standard error.
// Returns the usage exit status.
int refuse_command_line(const char* command, const UsageError& error, const char* usage);

}  // namespace tensorgate::cli
