#pragma once
// What the benchmarks of whole models share (audit_bench, diff_bench): TinyLlama-1.1B's shapes
// with a chosen number of layers, real non-repeating BF16 values (comparisons do real work),
// written with the canonical writer's header into a scratch directory removed at exit.
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <stdexcept>
#include <string>

#include "conversion_builder.hpp"

namespace tgbench {

std::uint64_t splitmix(std::uint64_t x);

// Element `i` of tensor `t`: a BF16 weight of magnitude 2^-8..2^-6, either sign.
std::uint16_t element(std::uint64_t t, std::uint64_t i);

// TinyLlama-1.1B's shapes with `layers` layers (4: a ~480 MB BF16 checkpoint).
tgtest::TinyLlama bench_model(std::uint64_t layers);

// model.safetensors of `m`: every element `element(t, i) ^ flip` (flip 1: every element moved
// by one unit in the last place, a fine-tune that touched everything).
void write_source(const tgtest::TinyLlama& m, const std::filesystem::path& path, std::uint16_t flip = 0);

// A file descriptor for pwrite, closed with the object.
class Fd {
 public:
  Fd(const std::filesystem::path& p, int flags);
  ~Fd();
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  void write_at(std::uint64_t at, const void* data, std::size_t n) const;
  int get() const { return fd_; }

 private:
  int fd_;
};

// A fresh directory under the system's temporary directory, removed with the object.
struct Scratch {
  explicit Scratch(const std::string& prefix);
  ~Scratch();
  std::filesystem::path dir;
};

// Every file read once, in order, in 4 MiB reads (the chunk size of the audit and the diff):
// the baseline the benchmarks compare with, and the page cache's warm-up.
void read_once(std::initializer_list<std::filesystem::path> files);

// Takes `--layers N` (default 4: the ~1 GB pair) out of the arguments, leaving Google
// Benchmark's flags for benchmark::Initialize.
std::uint64_t take_layers(int& argc, char** argv);

}  // namespace tgbench
