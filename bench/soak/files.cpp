#include "files.hpp"

#include <fcntl.h>
#include <openssl/evp.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace soak {
namespace {

std::string_view map_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error("cannot open " + path);
  struct stat st {};
  ::fstat(fd, &st);
  const auto size = static_cast<std::size_t>(st.st_size);
  if (size == 0) {
    ::close(fd);
    return {};
  }
  void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);
  if (p == MAP_FAILED) throw std::runtime_error("cannot map " + path);
  return {static_cast<const char*>(p), size};  // kept for the life of the process
}

std::string sha256_hex(std::string_view bytes) {
  unsigned char md[32];
  unsigned len = 0;
  EVP_Digest(bytes.data(), bytes.size(), md, &len, EVP_sha256(), nullptr);
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned i = 0; i < len; ++i) {
    out += hex[md[i] >> 4];
    out += hex[md[i] & 15];
  }
  return out;
}

std::string percent_encode(std::string_view s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += c;
    } else {
      out += '%';
      out += hex[u >> 4];
      out += hex[u & 15];
    }
  }
  return out;
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (const char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// One `tensorgate check --format json` over `paths`: one digest per file, in order.
std::vector<ReportDigest> offline_reports(const std::string& tensorgate,
                                          const std::vector<std::string>& args,
                                          const std::vector<const SoakFile*>& files) {
  std::string cmd = shell_quote(tensorgate) + " check --format json";
  for (const std::string& a : args) cmd += " " + shell_quote(a);
  for (const SoakFile* f : files) cmd += " " + shell_quote(f->path);
  FILE* out = ::popen(cmd.c_str(), "r");
  if (!out) throw std::runtime_error("cannot run " + tensorgate);
  ReportDigester digester(ReportLayout::cli);
  std::vector<char> buf(1 << 20);
  std::size_t n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), out)) > 0) digester.write({buf.data(), n});
  const int status = ::pclose(out);
  // Exit status 0 (valid), 1 (something invalid) or 2 (an aborted check) all have a report.
  if (!digester.finish() || digester.reports().size() != files.size())
    throw std::runtime_error("the offline check did not give one report per file (status " +
                             std::to_string(WEXITSTATUS(status)) + "): " + digester.error());
  return digester.reports();
}

}  // namespace

std::vector<SoakFile> load_files(const std::string& list, const std::string& tensorgate,
                                 const std::vector<std::string>& cli_args) {
  std::ifstream in(list);
  if (!in) throw std::runtime_error("cannot read " + list);
  std::vector<SoakFile> files;
  std::string line;
  while (std::getline(in, line)) {
    const std::size_t space = line.find(' ');
    if (space == std::string::npos) continue;
    const std::string kind = line.substr(0, space), path = line.substr(space + 1);
    SoakFile f;
    f.path = path;
    f.name = path.substr(path.find_last_of('/') + 1);
    f.query_name = percent_encode(f.name);
    f.worst = kind == "worst";
    f.bytes = map_file(path);
    f.sha256 = sha256_hex(f.bytes);
    files.push_back(std::move(f));
  }
  // Batches keep each command line short and each output small enough to stream.
  constexpr std::size_t kBatch = 200;
  for (std::size_t i = 0; i < files.size(); i += kBatch) {
    std::vector<const SoakFile*> batch;
    for (std::size_t j = i; j < std::min(files.size(), i + kBatch); ++j) batch.push_back(&files[j]);
    std::vector<std::string> args = cli_args;
    const auto with = offline_reports(tensorgate, args, batch);
    args.push_back("--no-tensors");
    const auto without = offline_reports(tensorgate, args, batch);
    for (std::size_t j = 0; j < batch.size(); ++j) {
      for (const ReportDigest* d : {&with[j], &without[j]})
        if (!d->fields.count("format") || !d->fields.count("valid") || !d->fields.count("findings"))
          throw std::runtime_error("the offline report of " + batch[j]->path + " has no verdict");
      files[i + j].offline = with[j];
      files[i + j].offline_no_tensors = without[j];
    }
  }
  return files;
}

}  // namespace soak
