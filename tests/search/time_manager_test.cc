// Time manager against simulated clocks: limits inside the clock, deep think on a fail-low.
#include "search/time_manager.h"

#include <gtest/gtest.h>

namespace vblitz::search {
namespace {

TEST(TimeManager, NeverPlansPastTheClock) {
  for (int64_t left : {50, 500, 5000, 60000, 600000}) {
    for (int64_t inc : {0, 100, 2000}) {
      for (int mtg : {0, 1, 5, 40}) {
        Limits limits;
        limits.time[core::WHITE] = left;
        limits.increment[core::WHITE] = inc;
        limits.moves_to_go = mtg;
        TimeManager tm;
        tm.start(limits, core::WHITE, 10);
        EXPECT_GT(tm.soft_limit(), 0);
        EXPECT_LE(tm.soft_limit(), tm.hard_limit());
        EXPECT_LT(tm.hard_limit(), std::max<int64_t>(left - 10, 2)) << left << " " << inc << " " << mtg;
        // Whatever the fail-low, the search stops by the hard limit.
        EXPECT_TRUE(tm.must_stop(tm.hard_limit(), 100000));
      }
    }
  }
}

TEST(TimeManager, TheOtherSidesClockBoundsASearchWhoseOwnIsMissing) {
  Limits limits;
  limits.time[core::WHITE] = 1000;  // `go wtime 1000` with Black to move
  TimeManager tm;
  tm.start(limits, core::BLACK, 10);
  EXPECT_GT(tm.hard_limit(), 0);  // 0 would mean no limit at all
  EXPECT_LT(tm.hard_limit(), 1000);
}

TEST(TimeManager, AlmostNoTimeLeftStopsAtOnce) {
  for (int64_t left : {0, 1, 5, 10, 11}) {
    Limits limits;
    limits.time[core::WHITE] = left;
    TimeManager tm;
    tm.start(limits, core::WHITE, 10);
    EXPECT_EQ(tm.hard_limit(), 1) << left;
    EXPECT_TRUE(tm.must_stop(1, 100000));
  }
}

// Increment games played to the end: each move uses its normal stop plus 5 ms of lag. The clock
// must settle well above the 10 ms overhead. (At 1+0.01 it used to settle near 20 ms, and at
// 3+0.03 near 60 ms, where scheduling hiccups on a loaded machine lost soak games on time.)
TEST(TimeManager, AClockLivingOnItsIncrementKeepsAReserve) {
  for (auto [base, inc] : {std::pair<int64_t, int64_t>{1000, 10}, {3000, 30}, {10000, 100}, {60000, 600}}) {
    int64_t clock = base, lowest = clock;
    for (int move = 0; move < 300; ++move) {
      Limits limits;
      limits.time[core::WHITE] = clock;
      limits.increment[core::WHITE] = inc;
      TimeManager tm;
      tm.start(limits, core::WHITE, 10);
      clock += inc - (std::min(tm.hard_limit(), 2 * tm.soft_limit()) + 5);
      lowest = std::min(lowest, clock);
    }
    EXPECT_GE(lowest, 100) << base << "+" << inc;
  }
}

TEST(TimeManager, DeepThinkExtendsOnlyOnAFailLow) {
  Limits limits;
  limits.time[core::BLACK] = 60000;
  TimeManager tm;
  tm.start(limits, core::BLACK, 0);
  const int64_t normal_stop = std::min(tm.hard_limit(), 2 * tm.soft_limit());
  EXPECT_TRUE(tm.must_stop(normal_stop, 0));
  EXPECT_FALSE(tm.must_stop(normal_stop, 150));  // failing low by 1.5 pawns: keep looking
  EXPECT_TRUE(tm.must_stop(tm.hard_limit(), 150));
  EXPECT_FALSE(tm.may_start_iteration(tm.soft_limit()));
}

TEST(TimeManager, MoveTimeAndInfinite) {
  Limits limits;
  limits.move_time = 1000;
  TimeManager tm;
  tm.start(limits, core::WHITE, 50);
  EXPECT_EQ(tm.hard_limit(), 950);
  limits = Limits();
  limits.infinite = true;
  limits.time[core::WHITE] = 1000;
  tm.start(limits, core::WHITE, 0);
  EXPECT_FALSE(tm.must_stop(1000000, 0));
}

}  // namespace
}  // namespace vblitz::search
