// One long-lived thread that runs the engine's searches and counting jobs, one at a time.
// Starting a fresh thread for every `go` cost milliseconds on a busy machine, and with
// Threads > 1 more: OpenMP keeps its worker pool per starting thread, so each new search thread
// built a new pool (about 8 ms here). Kept alive, the thread and its OpenMP workers are reused.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace vblitz::uci {

class JobThread {
 public:
  JobThread();   // starts the thread (throws std::system_error if the system refuses)
  ~JobThread();  // waits for the running job, then ends the thread
  JobThread(const JobThread&) = delete;
  JobThread& operator=(const JobThread&) = delete;

  // Runs `job` on the thread. The caller waits for any earlier job first (busy() is false).
  void start(std::function<void()> job);
  // Blocks until the job started last has returned; at once when there is none.
  void wait();
  // True from start() until wait() has seen the job return.
  bool busy() const { return busy_; }

 private:
  void loop();

  std::mutex mutex_;
  std::condition_variable changed_;
  std::function<void()> job_;  // set by start(), cleared by the thread when the job returns
  bool busy_ = false;          // read and written by the owner only
  bool quit_ = false;
  std::thread thread_;  // last: it starts once the members above exist
};

}  // namespace vblitz::uci
