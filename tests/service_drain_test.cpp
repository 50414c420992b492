// SIGTERM on the real `tensorgate serve` process: it stops accepting, answers /readyz with 503 on
// connections it already has, lets the upload in flight finish, then exits 0; an upload that does
// not finish is cut at the drain deadline.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <poll.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <thread>

#include "service_support.hpp"

namespace tgservice {
namespace {

class ServeProcess {
 public:
  explicit ServeProcess(const std::vector<std::string>& extra) {
    int out[2];
    if (::pipe(out) != 0) throw std::runtime_error("pipe");
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(out[1], STDOUT_FILENO);
      ::close(out[0]);
      std::vector<std::string> args = {TG_TENSORGATE_PATH, "serve", "--listen", "127.0.0.1:0", "--threads", "2"};
      args.insert(args.end(), extra.begin(), extra.end());
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    ::close(out[1]);
    out_ = out[0];
    port_ = read_port();
  }
  ~ServeProcess() {
    if (pid_ > 0 && !exited_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    ::close(out_);
  }
  std::uint16_t port() const { return port_; }
  void signal(int sig) { ::kill(pid_, sig); }
  // Reads the log until `text` appears in it (false after ~10 s without it).
  bool wait_for_log(std::string_view text) {
    char buf[4096];
    for (int polls = 0; log_.find(text) == std::string::npos; ++polls) {
      pollfd pfd{out_, POLLIN, 0};
      if (polls == 100 || ::poll(&pfd, 1, 100) < 0) return false;
      if (!(pfd.revents & (POLLIN | POLLHUP))) continue;
      const ssize_t n = ::read(out_, buf, sizeof buf);
      if (n <= 0) return false;
      log_.append(buf, static_cast<std::size_t>(n));
    }
    return true;
  }
  // The exit status, or -1 when the process has not exited within `ms`.
  int wait_exit(int ms) {
    for (int waited = 0; waited < ms; waited += 10) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        exited_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return -1;
  }

 private:
  // The "listening" log line names the ephemeral port.
  std::uint16_t read_port() {
    char buf[4096];
    for (;;) {
      const ssize_t n = ::read(out_, buf, sizeof buf);
      if (n <= 0) return 0;
      log_.append(buf, static_cast<std::size_t>(n));
      const std::size_t at = log_.find("\"address\":\"127.0.0.1:");
      if (at == std::string::npos) continue;
      const std::size_t end = log_.find('"', at + 21);
      if (end == std::string::npos) continue;
      return static_cast<std::uint16_t>(std::stoi(log_.substr(at + 21, end - at - 21)));
    }
  }

  pid_t pid_ = -1;
  int out_ = -1;
  std::uint16_t port_ = 0;
  bool exited_ = false;
  std::string log_;  // what the process has logged so far
};

bool can_connect(std::uint16_t port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  ::close(fd);
  return ok;
}

void wait_for_upload_in_flight(std::uint16_t port) {
  for (int i = 0; i < 1000; ++i) {
    if (metric(get(port, "/metrics").body, "tensorgate_uploads_in_flight") == 1) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ADD_FAILURE() << "the upload never started";
}

TEST(ServiceDrain, SigtermLetsTheUploadInFlightFinish) {
  ServeProcess p({"--drain-timeout-ms", "20000"});
  ASSERT_NE(p.port(), 0);
  const std::string file = valid_file(300'000);
  Client uploader(p.port(), 20'000);
  uploader.send(head("POST", "/v1/validate", {"Content-Length: " + std::to_string(file.size())}) +
                file.substr(0, 1000));
  wait_for_upload_in_flight(p.port());
  Client kept(p.port());
  kept.send(head("GET", "/livez"));
  ASSERT_EQ(kept.read_response("GET", "/livez").status, 200u);

  p.signal(SIGTERM);
  // Asked before the drain has begun, /readyz could still say 200 and close the connection
  // (the drain starts between the answer and its write): wait for the drain's log line first.
  ASSERT_TRUE(p.wait_for_log("\"event\":\"draining\""));
  kept.send(head("GET", "/readyz"));
  const HttpResponse ready = kept.read_response("GET", "/readyz");
  EXPECT_EQ(ready.status, 503u);
  bool refused = false;  // the acceptor closes right after the drain begins
  for (int i = 0; i < 200 && !refused; ++i) {
    refused = !can_connect(p.port());
    if (!refused) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_TRUE(refused);  // no longer accepting
  EXPECT_EQ(p.wait_exit(200), -1);      // still draining: the upload is in flight

  uploader.send(file.substr(1000));
  const HttpResponse r = uploader.read_response("POST", "/v1/validate");
  EXPECT_EQ(r.status, 200u);
  EXPECT_EQ(str(r.json().as_object().at("sha256")), sha256_hex(file));
  EXPECT_EQ(p.wait_exit(10'000), 0);
}

TEST(ServiceDrain, TheDrainDeadlineCutsAStalledUpload) {
  ServeProcess p({"--drain-timeout-ms", "300", "--body-idle-timeout-ms", "60000"});
  ASSERT_NE(p.port(), 0);
  Client uploader(p.port(), 20'000);
  uploader.send(head("POST", "/v1/validate", {"Content-Length: 100000"}) + valid_file(100'000).substr(0, 1000));
  wait_for_upload_in_flight(p.port());
  p.signal(SIGTERM);
  EXPECT_EQ(p.wait_exit(10'000), 0);
  EXPECT_EQ(uploader.read_response().status, 0u);  // cut without an answer
}

TEST(ServiceDrain, IdleServerStopsAtOnceOnSigterm) {
  ServeProcess p({});
  ASSERT_NE(p.port(), 0);
  EXPECT_EQ(get(p.port(), "/livez").status, 200u);
  p.signal(SIGTERM);
  EXPECT_EQ(p.wait_exit(10'000), 0);
}

}  // namespace
}  // namespace tgservice
