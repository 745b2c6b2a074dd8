// speedtest: its games replay legally and in full, a run keeps to its clock, and stop ends it.
#include "app/speedtest.h"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <chrono>
#include <sstream>

#include "core/game.h"

namespace vblitz::app {
namespace {

TEST(Speedtest, GamesReplayLegallyToTheirLastMove) {
  const std::vector<SpeedtestGame>& games = speedtest_games();
  ASSERT_EQ(games.size(), 4u);
  size_t positions = 0;
  for (const SpeedtestGame& g : games) {
    core::Game game;
    ASSERT_FALSE(game.set_fen(g.start_fen)) << g.start_fen;
    ASSERT_FALSE(game.play(g.moves)) << g.start_fen;
    positions += g.moves.size();
  }
  EXPECT_EQ(positions, 419u);  // the count docs/performance.md and the man page state
  // The last game ends in mate: the replay reached the end of the PGN text.
  core::Game last;
  last.set_fen(games.back().start_fen);
  last.play(games.back().moves);
  EXPECT_TRUE(last.position().in_check());
}

TEST(Speedtest, SearchesEveryPositionWithinItsClock) {
  SpeedtestOptions o;
  o.threads = 1;
  o.hash_mb = 2;
  o.seconds = 2;
  std::ostringstream out, progress;
  const std::atomic<bool> never{false};
  const auto start = std::chrono::steady_clock::now();
  rusage before{}, after{};
  getrusage(RUSAGE_SELF, &before);
  const SpeedtestResult r = run_speedtest(o, search::Options{}, out, progress, never);
  getrusage(RUSAGE_SELF, &after);
  const auto cpu_us = [](const rusage& u) {
    return (int64_t(u.ru_utime.tv_sec) + int64_t(u.ru_stime.tv_sec)) * 1000000 + u.ru_utime.tv_usec +
           u.ru_stime.tv_usec;
  };
  const int64_t rusage_ms = (cpu_us(after) - cpu_us(before)) / 1000;
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  EXPECT_FALSE(r.stopped);
  EXPECT_EQ(r.positions, 419);
  EXPECT_EQ(r.games, 4);
  EXPECT_GT(r.nodes, 0u);
  EXPECT_LE(ms, 2000 + 419 * 5) << "over the clock by more than 5 ms a move";
  EXPECT_NE(out.str().find("Nodes/second: "), std::string::npos) << out.str();
  // The CPU figure is the run's share of the process's CPU time as the kernel counts it: all of
  // it but the table's allocation and the threads' start.
  EXPECT_LE(r.cpu_ms, rusage_ms + 5);
  EXPECT_GE(double(r.cpu_ms), 0.85 * double(rusage_ms)) << rusage_ms;
  EXPECT_NE(out.str().find("Nodes/CPU-second: " + std::to_string(r.nodes * 1000 / uint64_t(r.cpu_ms))),
            std::string::npos)
      << out.str();
  EXPECT_NE(progress.str().find("419/419 positions"), std::string::npos) << progress.str();
}

TEST(Speedtest, StopEndsTheRun) {
  SpeedtestOptions o;
  o.seconds = 100;
  std::ostringstream out, progress;
  const std::atomic<bool> stop{true};
  const SpeedtestResult r = run_speedtest(o, search::Options{}, out, progress, stop);
  EXPECT_TRUE(r.stopped);
  EXPECT_EQ(r.positions, 0);
  EXPECT_NE(out.str().find("speedtest stopped"), std::string::npos);
}

}  // namespace
}  // namespace vblitz::app
