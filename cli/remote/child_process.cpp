#include "child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <utility>

extern char** environ;

namespace tensorgate::remote {
namespace {

// The helpers running, for the signal handler: a pid, 0 for a free place, kStarting while the
// place's thread is starting one (it blocks the handled signals meanwhile, so the handler runs
// on another thread and waits for the pid). A place is given back, and its pid reaped, only by
// whoever takes the pid out of it, the destructor or the handler: neither waits for or kills a
// pid the other has reaped. More places than helpers can run at once: one per --jobs worker
// (at most 256) and the probe.
constexpr pid_t kStarting = -1;
constexpr std::size_t kPlaces = 512;
std::array<std::atomic<pid_t>, kPlaces> g_running{};
std::atomic<bool> g_ending{false};  // a fatal signal came: no helper starts any more
constexpr std::array kHandled = {SIGHUP, SIGINT, SIGTERM, SIGPIPE, SIGABRT};
static_assert(std::atomic<pid_t>::is_always_lock_free && std::atomic<bool>::is_always_lock_free,
              "the signal handler may use only lock-free atomics");

void pause_briefly(long nanoseconds) {
  timespec t{0, nanoseconds};
  ::nanosleep(&t, nullptr);
}

void reap(pid_t pid) {
  while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
  }
}

// Async-signal-safe only: atomics, kill, waitpid, nanosleep, raise.
void end_helpers_then_die(int sig) {
  const int saved_errno = errno;
  g_ending.store(true);
  for (std::atomic<pid_t>& place : g_running) {
    // A start under way takes a fork and an exec; past 5 s something else is wrong.
    for (int i = 0; i < 5'000 && place.load() == kStarting; ++i) pause_briefly(1'000'000);
    pid_t pid = place.load();
    if (pid <= 0 || !place.compare_exchange_strong(pid, 0)) continue;
    ::kill(pid, SIGKILL);
    reap(pid);
  }
  errno = saved_errno;
  // SA_RESETHAND made the action the default again; the signal, blocked until this returns, then
  // ends the process as it would have without this handler.
  ::raise(sig);
}

sigset_t handled_set() {
  sigset_t set;
  sigemptyset(&set);
  for (const int sig : kHandled) sigaddset(&set, sig);
  return set;
}

// Where a signal's action is the default (not ignored, not someone's handler).
void install_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (const int sig : kHandled) {
      struct sigaction old {};
      if (::sigaction(sig, nullptr, &old) != 0 || (old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL) continue;
      struct sigaction action {};
      action.sa_handler = end_helpers_then_die;
      action.sa_mask = handled_set();
      action.sa_flags = SA_RESETHAND | SA_RESTART;
      ::sigaction(sig, &action, nullptr);
    }
  });
}

// True once `pid` has ended (a zombie now, or gone), within `limit`; it is not reaped here.
bool ended_within(pid_t pid, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  long pause = 100'000;  // 0.1 ms, doubling to 25.6 ms
  for (;;) {
    siginfo_t info{};
    const int rc = ::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT);
    if (rc < 0 && errno == EINTR) continue;
    if (rc < 0 || info.si_pid == pid) return true;  // ECHILD: SIGCHLD ignored, reaped by the kernel
    if (std::chrono::steady_clock::now() >= deadline) return false;
    pause_briefly(pause);
    pause = std::min(pause * 2, 25'600'000L);
  }
}

// Until `pid` has ended (a zombie now, or gone); it is not reaped here.
void wait_until_ended(pid_t pid) {
  siginfo_t info{};
  while (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR) {
  }
}

// posix_spawn's answer: `path` with `args`, `socket` as its fd 0, stdout to /dev/null, stderr
// shared, no other descriptor, and the signal mask `mask` (the caller's own, not the one it
// holds while starting: a helper must not start with SIGTERM blocked).
int spawn_on(int socket, const std::string& path, const std::vector<std::string>& args, const sigset_t& mask,
             pid_t& pid) {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(path.c_str()));
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, socket, 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addclosefrom_np(&actions, 3);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setsigmask(&attr, &mask);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
  const int rc = ::posix_spawn(&pid, path.c_str(), &actions, &attr, argv.data(), environ);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&actions);
  return rc;
}

}  // namespace

ChildProcess::ChildProcess(ChildProcess&& other) noexcept
    : pid_(std::exchange(other.pid_, -1)), fd_(std::exchange(other.fd_, -1)), slot_(std::exchange(other.slot_, -1)),
      answered_(other.answered_) {}

ChildProcess::~ChildProcess() {
  if (fd_ >= 0) ::close(fd_);
  if (pid_ <= 0) return;
  std::atomic<pid_t>& place = g_running[static_cast<std::size_t>(slot_)];
  // Killed only while still in its place: once the handler has taken it, it may be reaped already.
  if (!(answered_ && ended_within(pid_, kExitGrace)) && place.load() == pid_) ::kill(pid_, SIGKILL);
  wait_until_ended(pid_);
  pid_t mine = pid_;
  if (place.compare_exchange_strong(mine, 0)) reap(pid_);
  // Else the signal handler has taken it and reaps it before the process ends.
}

int ChildProcess::release_socket() { return std::exchange(fd_, -1); }

bool ChildProcess::start(const std::string& path, const std::vector<std::string>& args, std::string& error) {
  install_handlers();
  int pair[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
    error = std::string("socketpair failed: ") + std::strerror(errno);
    return false;
  }
  fd_ = pair[0];
  // From taking a place to putting the pid in it, no handled signal runs on this thread.
  const sigset_t handled = handled_set();
  sigset_t before;
  ::pthread_sigmask(SIG_BLOCK, &handled, &before);
  for (std::size_t i = 0; i < kPlaces && slot_ < 0; ++i) {
    pid_t free_place = 0;
    if (g_running[i].compare_exchange_strong(free_place, kStarting)) slot_ = static_cast<int>(i);
  }
  // The place is taken before g_ending is read; the handler sets it before it reads the places.
  const bool ending = g_ending.load();
  int rc = -1;
  pid_t pid = -1;
  if (slot_ >= 0 && !ending) rc = spawn_on(pair[1], path, args, before, pid);
  if (slot_ >= 0) g_running[static_cast<std::size_t>(slot_)].store(rc == 0 ? pid : 0);
  ::pthread_sigmask(SIG_SETMASK, &before, nullptr);
  ::close(pair[1]);
  if (rc != 0) {
    error = slot_ < 0 ? "too many helper processes at once" : ending ? "the process is ending" : std::strerror(rc);
    slot_ = -1;
    return false;
  }
  pid_ = pid;
  return true;
}

}  // namespace tensorgate::remote
