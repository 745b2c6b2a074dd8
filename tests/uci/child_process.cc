// POSIX pipes and fork/exec for ChildProcess.
#include "tests/uci/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <stdexcept>

namespace vblitz::test {

ChildProcess::ChildProcess(const std::vector<std::string>& argv) {
  int in[2], out[2];
  if (pipe(in) != 0 || pipe(out) != 0) throw std::runtime_error("pipe failed");
  pid_ = fork();
  if (pid_ == 0) {
    dup2(in[0], STDIN_FILENO);
    dup2(out[1], STDOUT_FILENO);
    dup2(out[1], STDERR_FILENO);
    close(in[1]);
    close(out[0]);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  to_child_ = in[1];
  from_child_ = out[0];
  signal(SIGPIPE, SIG_IGN);
}

ChildProcess::~ChildProcess() {
  close_input();
  if (from_child_ >= 0) close(from_child_);
  if (pid_ > 0 && wait(std::chrono::milliseconds(2000)) == -1) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
}

void ChildProcess::send(const std::string& line) {
  std::string data = line + "\n";
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = write(to_child_, data.data() + done, data.size() - done);
    if (n <= 0) return;
    done += size_t(n);
  }
}

std::string ChildProcess::read_until(const std::string& prefix, std::chrono::milliseconds timeout,
                                     bool* found) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  size_t scanned = 0;
  if (found) *found = false;
  while (true) {
    // Look for a complete line starting with the prefix.
    for (size_t start = scanned, nl; (nl = buffer_.find('\n', start)) != std::string::npos; start = nl + 1) {
      scanned = nl + 1;
      if (buffer_.compare(start, prefix.size(), prefix) == 0) {
        std::string result = buffer_.substr(0, nl + 1);
        buffer_.erase(0, nl + 1);
        if (found) *found = true;
        return result;
      }
    }
    auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    pollfd p{from_child_, POLLIN, 0};
    if (poll(&p, 1, int(left.count())) <= 0) break;
    char chunk[4096];
    ssize_t n = read(from_child_, chunk, sizeof chunk);
    if (n <= 0) break;
    buffer_.append(chunk, size_t(n));
  }
  std::string result = buffer_;
  buffer_.clear();
  return result;
}

void ChildProcess::close_input() {
  if (to_child_ >= 0) close(to_child_);
  to_child_ = -1;
}

int ChildProcess::wait(std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    int status = 0;
    pid_t r = waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
      pid_ = -1;
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    usleep(2000);
  }
  return -1;
}

}  // namespace vblitz::test
