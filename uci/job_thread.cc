#include "uci/job_thread.h"

#include <utility>

namespace vblitz::uci {

JobThread::JobThread() : thread_([this] { loop(); }) {}

JobThread::~JobThread() {
  wait();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    quit_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void JobThread::start(std::function<void()> job) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = std::move(job);
  }
  busy_ = true;
  changed_.notify_all();
}

void JobThread::wait() {
  if (!busy_) return;
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [this] { return !job_; });
  busy_ = false;
}

void JobThread::loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    changed_.wait(lock, [this] { return job_ || quit_; });
    if (!job_) return;  // quit_ with nothing left to run
    lock.unlock();
    try {
      job_();
    } catch (...) {  // the engine reports its jobs' failures; nothing may end this thread
    }
    lock.lock();
    job_ = nullptr;
    changed_.notify_all();
  }
}

}  // namespace vblitz::uci
