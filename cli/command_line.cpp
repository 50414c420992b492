#include "command_line.hpp"

#include <cstdio>
#include <cstdlib>

namespace tensorgate::cli {
namespace po = boost::program_options;

void parse_command_line(const std::vector<std::string>& args, const po::options_description& named,
                        const char* usage) {
  po::positional_options_description positional;
  positional.add("path", -1);
  po::variables_map vm;
  po::store(po::command_line_parser(args).options(named).positional(positional).run(), vm);
  po::notify(vm);
  if (vm.count("help")) {
    std::fputs(usage, stdout);
    std::exit(0);
  }
}

}  // namespace tensorgate::cli
