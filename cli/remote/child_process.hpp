#pragma once
// A helper process the executable starts (tensorgate-tls, tls_client.hpp) on one end of a socket
// pair. A check never ends before every helper it started has ended and been reaped by it
// (waitpid): nothing is left for the machine's PID 1 to reap, which in many containers reaps
// nothing, so an orphan would stay a zombie for the container's life.
//  - Every return, error and exception: the destructor. A helper that has answered ends by itself
//    once its socket closes (the relay sees the end; a probe has ended already), and is waited for
//    up to kExitGrace so that it exits whole (a sanitizer's leak check at its exit, for one, runs
//    in a child of its own that a SIGKILL would orphan); one that has not answered (a connect or a
//    handshake under way) is killed at once.
//  - SIGHUP, SIGINT, SIGTERM, SIGPIPE and SIGABRT (which an uncaught exception ends in): a handler,
//    installed with the first helper where the signal's action is the default, kills and reaps
//    every helper still running, then lets the signal take its default course.
//  - The executable killed outright (SIGKILL): the helper's PR_SET_PDEATHSIG kills it too
//    (tls_helper_main.cpp); reaping it is then its new parent's task, as it must be.
#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace tensorgate::remote {

class ChildProcess {
 public:
  static constexpr std::chrono::milliseconds kExitGrace{5'000};

  ChildProcess() = default;
  ChildProcess(ChildProcess&& other) noexcept;
  ChildProcess& operator=(ChildProcess&&) = delete;
  ~ChildProcess();

  // Starts `path` with `args` on one end of a new socket pair (its fd 0; stdout to /dev/null,
  // stderr shared, no other descriptor); keeps the other end. False with `error` set to why.
  bool start(const std::string& path, const std::vector<std::string>& args, std::string& error);
  int socket() const { return fd_; }
  // The socket, for a connection to own from here (closed by it, before this ends).
  int release_socket();
  // The child has answered (or ended): closing its socket ends it, so it is waited for, not killed.
  void answered() { answered_ = true; }

 private:
  pid_t pid_ = -1;
  int fd_ = -1;
  int slot_ = -1;  // its place in the table the signal handler reaps from
  bool answered_ = false;
};

}  // namespace tensorgate::remote
