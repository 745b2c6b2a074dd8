// A child process driven over pipes, for tests that talk to the real vblitz binary (or to a
// third-party client such as polyglot) the way a GUI does.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace vblitz::test {

class ChildProcess {
 public:
  // Starts `argv[0]` with the arguments; stdin and stdout (stderr merged) become pipes.
  explicit ChildProcess(const std::vector<std::string>& argv);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Writes one line (a newline is appended).
  void send(const std::string& line);
  // Reads until a line starts with `prefix`, or the timeout passes. Returns everything read
  // since the last call; `found` tells whether the line came.
  std::string read_until(const std::string& prefix, std::chrono::milliseconds timeout, bool* found = nullptr);
  // Closes the child's input (end of file for it).
  void close_input();
  // Waits up to `timeout` for the child to exit; returns its exit status, or -1 if it did not.
  int wait(std::chrono::milliseconds timeout);
  int pid() const { return pid_; }

 private:
  int pid_ = -1;
  int to_child_ = -1, from_child_ = -1;
  std::string buffer_;
};

}  // namespace vblitz::test
