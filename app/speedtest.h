// `speedtest`: the whole machine loaded as in play. The positions of four fixed games
// (app/speedtest_games.h) are searched in order on every thread with a shared table kept from
// move to move, each game under a clock of "moves in time" (each side's share of the game's
// time, with its remaining moves as movestogo), so the time manager, thread start-up and a
// filling table all count. Total nodes and nodes per second compare machines; the positions
// are the same on every run and machine.
#pragma once

#include <atomic>
#include <cstdint>
#include <iosfwd>

#include "search/search.h"

namespace vblitz::app {

struct SpeedtestOptions {
  int threads = 1;
  int hash_mb = 16;
  int seconds = 150;  // the time of the whole run (the clocks' total)
};

// 64 MB of table per thread, at most a quarter of physical memory.
int speedtest_hash_mb(int threads);
// Every hardware thread, speedtest_hash_mb of them, 150 seconds.
SpeedtestOptions default_speedtest_options();

struct SpeedtestResult {
  uint64_t nodes = 0;
  int64_t time_ms = 0;
  int64_t cpu_ms = 0;  // CPU time the process used during the run: the search threads' (the
                       // waiting main thread uses almost none); steadier than time_ms where
                       // other work shares the cores
  int games = 0, positions = 0;
  int hashfull = 0;         // permille of the table in use at each game's end, the mean
  double mean_depth = 0.0;  // completed depth, the mean over the positions
  bool stopped = false;     // `stop` became true: the figures cover the positions searched
};

// The games of the speedtest as (start FEN, moves in UCI notation); they replay legally.
struct SpeedtestGame {
  std::string start_fen;
  std::vector<std::string> moves;
};
const std::vector<SpeedtestGame>& speedtest_games();

// Runs the speedtest with `options` and the search settings `search_options`; prints the
// settings and totals to `out` and a progress line every few positions to `progress`.
SpeedtestResult run_speedtest(const SpeedtestOptions& options, const search::Options& search_options,
                              std::ostream& out, std::ostream& progress, const std::atomic<bool>& stop);

}  // namespace vblitz::app
