#include "uci/deadline.h"

#include <utility>

namespace vblitz::uci {

Deadline::Deadline(std::function<void()> on_time)
    : on_time_(std::move(on_time)), thread_([this] { loop(); }) {}

Deadline::~Deadline() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    quit_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void Deadline::arm(Clock::time_point when) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    armed_ = true;
    when_ = when;
  }
  changed_.notify_all();
}

void Deadline::disarm() {
  std::unique_lock<std::mutex> lock(mutex_);
  armed_ = false;
  changed_.notify_all();
  changed_.wait(lock, [this] { return !running_; });
}

void Deadline::loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!quit_) {
    if (!armed_) {
      changed_.wait(lock);
      continue;
    }
    if (Clock::now() < when_) {
      changed_.wait_until(lock, when_);
      continue;  // re-read: disarmed, re-armed or woken early
    }
    armed_ = false;
    running_ = true;
    lock.unlock();
    try {
      on_time_();
    } catch (...) {  // the engine reports its own failures; nothing may end this thread
    }
    lock.lock();
    running_ = false;
    changed_.notify_all();
  }
}

}  // namespace vblitz::uci
