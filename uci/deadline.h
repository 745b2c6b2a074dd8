// A timer thread that runs one function at a set time unless it is disarmed first: the clock's
// guard for a search whose own threads the system has descheduled (Threads far above the
// cores), which would otherwise answer long after the hard limit. A thread asleep on a timer
// is woken and run at once even when hundreds of searching threads share the cores.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace vblitz::uci {

class Deadline {
 public:
  using Clock = std::chrono::steady_clock;
  explicit Deadline(std::function<void()> on_time);  // starts the thread
  ~Deadline();
  Deadline(const Deadline&) = delete;
  Deadline& operator=(const Deadline&) = delete;

  // Runs the function at `when` (at once if it has passed), replacing any earlier time.
  void arm(Clock::time_point when);
  // Cancels the armed time; when the function is running, waits for it to return. After it
  // returns the function does not run until the next arm().
  void disarm();

 private:
  void loop();

  std::function<void()> on_time_;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool armed_ = false;
  bool running_ = false;  // on_time_ is running (without the lock)
  bool quit_ = false;
  Clock::time_point when_;
  std::thread thread_;  // last: it starts once the members above exist
};

}  // namespace vblitz::uci
