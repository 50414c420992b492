#include "bench_pair.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "tensorgate/safetensors/writer.hpp"

namespace tgbench {
namespace fs = std::filesystem;

std::uint64_t splitmix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

std::uint16_t element(std::uint64_t t, std::uint64_t i) {
  return static_cast<std::uint16_t>((splitmix(t << 40 ^ i) & 0x80ff) | 0x3b80);
}

tgtest::TinyLlama bench_model(std::uint64_t layers) {
  tgtest::TinyLlama m;  // TinyLlama-1.1B's shapes
  m.layers = layers;
  m.heads = 32;
  m.kv_heads = 4;
  m.head_dim = 64;
  m.hidden = 2048;
  m.intermediate = 5632;
  m.vocab = 32000;
  return m;
}

Fd::Fd(const fs::path& p, int flags) : fd_(::open(p.c_str(), flags | O_CLOEXEC, 0644)) {
  if (fd_ < 0) throw std::runtime_error("cannot open " + p.string());
}
Fd::~Fd() { ::close(fd_); }
void Fd::write_at(std::uint64_t at, const void* data, std::size_t n) const {
  if (::pwrite(fd_, data, n, static_cast<off_t>(at)) != static_cast<ssize_t>(n)) throw std::runtime_error("pwrite");
}

// The canonical writer's header; data in its order (all BF16: by name).
void write_source(const tgtest::TinyLlama& m, const fs::path& path, std::uint16_t flip) {
  auto shapes = tgtest::checkpoint_shapes(m);
  std::vector<tensorgate::TensorSpec> specs;
  for (const auto& [name, shape] : shapes) specs.push_back({name, tensorgate::Dtype::BF16, shape, {}});
  std::uint64_t data_length = 0;
  const auto header = tensorgate::write_safetensors_header(specs, {{"format", "pt"}}, data_length);
  const Fd fd(path, O_WRONLY | O_CREAT | O_TRUNC);
  fd.write_at(0, header.bytes.data(), header.bytes.size());
  std::vector<std::size_t> order(shapes.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return shapes[a].first < shapes[b].first; });
  std::uint64_t at = header.bytes.size();
  std::vector<std::uint16_t> buf;
  for (const std::size_t t : order) {
    std::uint64_t n = 1;
    for (const auto d : shapes[t].second) n *= d;
    buf.resize(n);
    for (std::uint64_t i = 0; i < n; ++i) buf[i] = static_cast<std::uint16_t>(element(t, i) ^ flip);
    fd.write_at(at, buf.data(), n * 2);
    at += n * 2;
  }
}

Scratch::Scratch(const std::string& prefix)
    : dir(fs::temp_directory_path() / (prefix + "-" + std::to_string(::getpid()))) {
  fs::create_directories(dir);
}
Scratch::~Scratch() {
  std::error_code ec;
  fs::remove_all(dir, ec);
}

void read_once(std::initializer_list<fs::path> files) {
  static std::vector<char> buf(4 << 20);
  for (const fs::path& p : files) {
    const Fd fd(p, O_RDONLY);
    while (::read(fd.get(), buf.data(), buf.size()) > 0) {
    }
  }
}

std::uint64_t take_layers(int& argc, char** argv) {
  std::uint64_t layers = 4;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--layers") == 0 && i + 1 < argc) layers = std::stoull(argv[++i]);
    else argv[kept++] = argv[i];
  }
  argc = kept;
  return layers;
}

}  // namespace tgbench
