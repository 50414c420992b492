#include "command_line.hpp"

#include <getopt.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "check_command.hpp"  // ExitStatus

namespace tensorgate::cli {
namespace {

// getopt_long's value for a long option without a short name: past every char.
constexpr int kLongOnly = 256;

std::string dashed(const char* name) { return std::string("--") + name; }

template <typename Number>
void store_number(const char* value, Number* to, const char* name, const char* kind) {
  const std::string_view text(value);
  const auto res = std::from_chars(text.data(), text.data() + text.size(), *to);
  if (text.empty() || res.ec != std::errc() || res.ptr != text.data() + text.size())
    throw UsageError(dashed(name) + " takes " + kind);
}

// One occurrence of an option, into its variable.
void store(const OptionTable::Target& to, const char* name, const char* value) {
  struct Visitor {
    const char* name;
    const char* value;
    void operator()(bool* b) const { *b = true; }
    void operator()(std::string* s) const { *s = value; }
    void operator()(std::vector<std::string>* v) const { v->emplace_back(value); }
    void operator()(unsigned* n) const { store_number(value, n, name, "a whole number"); }
    void operator()(std::uint64_t* n) const { store_number(value, n, name, "a whole number"); }
    void operator()(double* d) const { store_number(value, d, name, "a number"); }
  };
  std::visit(Visitor{name, value}, to);
}

// An argument getopt_long did not know, up to any "=VALUE" (which is never echoed).
std::string option_text(const char* arg) {
  const std::string_view text(arg);
  return std::string(text.substr(0, std::min(text.find('='), std::size_t{80})));
}

}  // namespace

OptionTable& OptionTable::add(const char* name, Target to, char short_name) {
  options_.push_back(Option{name, short_name, to});
  return *this;
}

namespace {

// getopt_long's tables for `options`: the long options (and --help), and the short ones after
// "-:h" ("-": every other argument comes back in order as option 1, so POSIXLY_CORRECT changes
// nothing; ":": a missing value is reported as ':' rather than printed by getopt itself).
struct GetoptTables {
  std::vector<option> longs;
  std::string shorts = "-:h";
};

int value_of(const std::vector<OptionTable::Option>& options, std::size_t i) {
  return options[i].short_name ? options[i].short_name : kLongOnly + static_cast<int>(i);
}

GetoptTables tables_for(const std::vector<OptionTable::Option>& options) {
  GetoptTables t;
  for (std::size_t i = 0; i < options.size(); ++i) {
    const bool takes_value = !std::holds_alternative<bool*>(options[i].to);
    t.longs.push_back(option{options[i].name, takes_value ? required_argument : no_argument, nullptr, value_of(options, i)});
    if (options[i].short_name) t.shorts += std::string(1, options[i].short_name) + (takes_value ? ":" : "");
  }
  t.longs.push_back(option{"help", no_argument, nullptr, 'h'});
  t.longs.push_back(option{nullptr, 0, nullptr, 0});
  return t;
}

// The error for getopt_long's answer `c` (':' or '?') about the argument just read, `arg`.
[[noreturn]] void refuse(int c, const std::vector<OptionTable::Option>& options, const char* arg) {
  std::size_t i = 0;
  while (i < options.size() && value_of(options, i) != optopt) ++i;
  const bool known = optopt && i < options.size();
  if (c == ':') throw UsageError((known ? dashed(options[i].name) : option_text(arg)) + " needs a value");
  if (known) throw UsageError(dashed(options[i].name) + " takes no value");
  if (optopt == 'h') throw UsageError("--help takes no value");
  if (optopt) throw UsageError("unknown option '-" + std::string(1, static_cast<char>(optopt)) + "'");
  throw UsageError("unknown or ambiguous option '" + option_text(arg) + "'");
}

}  // namespace

std::vector<std::string> parse_command_line(const std::vector<std::string>& args, const OptionTable& table,
                                            const char* usage) {
  const auto& options = table.options_;
  const GetoptTables tables = tables_for(options);
  std::vector<std::string> storage{"tensorgate"};  // getopt_long permutes and reads argv[0]
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& s : storage) argv.push_back(s.data());
  argv.push_back(nullptr);
  const int argc = static_cast<int>(storage.size());

  std::vector<std::string> paths;
  std::vector<bool> seen(options.size());
  optind = 0;  // glibc: start afresh
  opterr = 0;
  for (int c; (c = getopt_long(argc, argv.data(), tables.shorts.c_str(), tables.longs.data(), nullptr)) != -1;) {
    if (c == 1) {
      paths.emplace_back(optarg);
    } else if (c == 'h') {
      std::fputs(usage, stdout);
      std::exit(0);
    } else if (c == ':' || c == '?') {
      refuse(c, options, argv[optind - 1]);
    } else {
      std::size_t i = 0;
      while (i < options.size() && value_of(options, i) != c) ++i;
      if (i == options.size()) refuse('?', options, argv[optind - 1]);  // getopt_long never answers so
      const bool list = std::holds_alternative<std::vector<std::string>*>(options[i].to);
      if (seen[i] && !list) throw UsageError(dashed(options[i].name) + " is given more than once");
      seen[i] = true;
      store(options[i].to, options[i].name, optarg);
    }
  }
  for (int i = optind; i < argc; ++i) paths.emplace_back(argv[i]);  // after "--"
  return paths;
}

int refuse_command_line(const char* command, const UsageError& error, const char* usage) {
  // The synopsis: the "usage:" line and the indented lines that continue it.
  const std::string_view text(usage);
  std::size_t end = text.find('\n');
  while (end != std::string_view::npos && end + 1 < text.size() && text[end + 1] == ' ') end = text.find('\n', end + 1);
  const std::string_view synopsis = text.substr(0, end == std::string_view::npos ? text.size() : end + 1);
  std::fprintf(stderr, "tensorgate %s: %s\n%.*sRun 'tensorgate %s --help' for the whole description.\n", command,
               error.what(), static_cast<int>(synopsis.size()), synopsis.data(), command);
  return kUsageOrIo;
}

}  // namespace tensorgate::cli
