// What this machine charges for the things a small `tensorgate check` does once each as it
// starts: a fresh page, a page made resident ahead by MADV_POPULATE_WRITE, a page of a file in
// the page cache, CPUID, a seed from std::random_device or getrandom(2). On a VM the page and
// CPUID figures are many times those of bare metal, and they decide where a 3 ms process goes
// (bench/README.md, "The small check's start, 2026-12-03: fewer first writes to fresh pages").
//
// Each figure is the median of ROUNDS rounds over fresh memory, in microseconds and as a ratio to
// one system call (getppid) measured in the same run.
//
//   start_costs [ROUNDS] [FILE]     FILE: any file of at least 256 KiB (default: a temporary one)
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <functional>
#include <random>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14; on an older kernel the populated rows are fresh pages
#endif

namespace {

constexpr std::size_t kPage = 4096;
constexpr std::size_t kPages = 64;  // per round: enough to dwarf the clock's own cost
volatile char g_sink;

double now_us() {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

char* fresh_anonymous() {
  void* p = ::mmap(nullptr, kPages * kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) std::perror("mmap"), std::exit(2);
  return static_cast<char*>(p);
}

// The median over `rounds` of `one_round()`, which returns the microseconds of `per` events.
double median_per(int rounds, double per, const std::function<double()>& one_round) {
  std::vector<double> v;
  for (int r = 0; r < rounds; ++r) v.push_back(one_round() / per);
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

// One round of a measurement: the microseconds of `per` events, over fresh memory.
struct Measure {
  const char* what;
  double per;
  std::function<double()> round;
};

// A fresh 64-page mapping: `before` untimed, then `timed` timed, then unmapped.
double over_fresh(const std::function<void(char*)>& before, const std::function<void(char*)>& timed) {
  char* p = fresh_anonymous();
  before(p);
  const double t = now_us();
  timed(p);
  const double d = now_us() - t;
  ::munmap(p, kPages * kPage);
  return d;
}

void nothing(char*) {}
void populate(char* p) { ::madvise(p, kPages * kPage, MADV_POPULATE_WRITE); }
void write_each_page(char* p) {
  for (std::size_t i = 0; i < kPages; ++i) p[i * kPage] = 1;
}
void read_into(int fd, char* p) {
  if (::pread(fd, p, kPages * kPage, 0) < 0) std::perror("pread"), std::exit(2);
}

double first_read_of_file_pages(int fd) {
  void* m = ::mmap(nullptr, kPages * kPage, PROT_READ, MAP_PRIVATE, fd, 0);
  if (m == MAP_FAILED) std::perror("mmap file"), std::exit(2);
  const char* p = static_cast<const char*>(m);
  const double t = now_us();
  for (std::size_t i = 0; i < kPages; ++i) g_sink = p[i * kPage];
  const double d = now_us() - t;
  ::munmap(m, kPages * kPage);
  return d;
}

std::vector<Measure> measures(int fd) {
  const auto read = [fd](char* p) { read_into(fd, p); };
  const auto populate_and_read = [fd](char* p) { populate(p), read_into(fd, p); };
  std::vector<Measure> m = {
      {"first write to a fresh anonymous page (a page fault)", kPages, [] { return over_fresh(nothing, write_each_page); }},
      {"MADV_POPULATE_WRITE, per page", kPages, [] { return over_fresh(nothing, populate); }},
      {"first write to a populated page", kPages, [] { return over_fresh(populate, write_each_page); }},
      {"second write to the same page", kPages, [] { return over_fresh(write_each_page, write_each_page); }},
      {"first read of a mapped file page in the page cache", kPages, [fd] { return first_read_of_file_pages(fd); }},
      {"read(2) into fresh memory, per page", kPages, [read] { return over_fresh(nothing, read); }},
      {"read(2) into populated memory, per page (populate included)", kPages,
       [populate_and_read] { return over_fresh(nothing, populate_and_read); }},
      {"read(2) into memory already written, per page", kPages, [read] { return over_fresh(write_each_page, read); }},
  };
#if defined(__x86_64__) || defined(__i386__)
  m.push_back({"CPUID (leaf 7)", 100, [] {
                 unsigned a, b, c, d;
                 const double t = now_us();
                 for (int i = 0; i < 100; ++i) {
                   __cpuid_count(7, 0, a, b, c, d);
                   g_sink = static_cast<char>(a ^ b ^ c ^ d);
                 }
                 return now_us() - t;
               }});
#endif
  m.push_back({"std::random_device, constructed, two draws", 1, [] {
                 const double t = now_us();
                 std::random_device rd;
                 g_sink = static_cast<char>(rd() ^ rd());
                 return now_us() - t;
               }});
  m.push_back({"getrandom(2), 8 bytes", 1, [] {
                 unsigned long long seed = 0;
                 const double t = now_us();
                 if (::getrandom(&seed, sizeof seed, GRND_NONBLOCK) != sizeof seed) seed = 0;
                 g_sink = static_cast<char>(seed);
                 return now_us() - t;
               }});
  return m;
}

// Without FILE: 256 KiB written to an unlinked temporary file, so its pages are in the page cache.
int page_cache_file() {
  char name[] = "/tmp/start_costs.XXXXXX";
  const int fd = ::mkstemp(name);
  if (fd < 0) return -1;
  ::unlink(name);
  const std::vector<char> bytes(kPages * kPage, 'x');
  if (::write(fd, bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size())) return -1;
  return fd;
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 30;
  const int fd = argc > 2 ? ::open(argv[2], O_RDONLY) : page_cache_file();
  struct stat st {};
  // A mapped page past the file's end would be SIGBUS, not a figure.
  if (fd < 0 || ::fstat(fd, &st) != 0 || static_cast<std::size_t>(st.st_size) < kPages * kPage || rounds < 1) {
    std::fprintf(stderr, "usage: start_costs [ROUNDS] [FILE of at least 256 KiB]\n");
    return 2;
  }
  const double syscall = median_per(rounds, 1000, [] {
    const double t = now_us();
    for (int i = 0; i < 1000; ++i) g_sink = static_cast<char>(::getppid());
    return now_us() - t;
  });
  std::printf("| what (median of %d rounds) | us | / system call |\n|---|---|---|\n", rounds);
  std::printf("| a system call (getppid): the baseline | %.2f | 1.0 |\n", syscall);
  for (const Measure& m : measures(fd)) {
    const double us = median_per(rounds, m.per, m.round);
    std::printf("| %s | %.2f | %.1f |\n", m.what, us, us / syscall);
  }
  return 0;
}
