// The engine's search thread: jobs run one at a time on one long-lived thread (so OpenMP's
// worker pool, kept per starting thread, is built once), and wait() sees each job's effects.
#include "uci/job_thread.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <set>
#include <thread>

namespace vblitz::uci {
namespace {

TEST(JobThread, RunsEveryJobOnTheSameThreadAndWaitSeesItsEffects) {
  JobThread worker;
  std::set<std::thread::id> ids;
  int done = 0;
  for (int i = 0; i < 50; ++i) {
    EXPECT_FALSE(worker.busy());
    worker.start([&] {
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      ids.insert(std::this_thread::get_id());
      ++done;
    });
    EXPECT_TRUE(worker.busy());
    worker.wait();
    EXPECT_EQ(done, i + 1);
  }
  EXPECT_FALSE(worker.busy());
  ASSERT_EQ(ids.size(), 1u);
  EXPECT_NE(*ids.begin(), std::this_thread::get_id());
}

TEST(JobThread, WaitWithoutAJobReturnsAtOnce) {
  JobThread worker;
  worker.wait();
  EXPECT_FALSE(worker.busy());
}

TEST(JobThread, DestructionWaitsForTheRunningJob) {
  std::atomic<bool> finished{false};
  {
    JobThread worker;
    worker.start([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      finished = true;
    });
  }
  EXPECT_TRUE(finished);
}

}  // namespace
}  // namespace vblitz::uci
