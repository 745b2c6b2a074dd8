// A match between two UCI or xboard engines as the usual runners play it (a subset of fastchess's
// command line, so perf/match.sh and perf/soak.sh can use either): openings from an EPD file in
// an order the seed sets, game pairs with both colours of each opening, several games at a
// time, adjudication, PGN output, and Elo, pentanomial counts and an SPRT at the end.
#pragma once

#include <atomic>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "match/engine.h"
#include "match/game.h"
#include "match/stats.h"

namespace vblitz::match {

struct Sprt {
  double elo0 = 0, elo1 = 5, alpha = 0.05, beta = 0.05;
};

struct MatchOptions {
  EngineConfig engines[2];
  Limit limits[2];
  std::string time_control[2];  // as given (tc=), for the PGN and the summary
  std::string openings_file;
  bool random_order = false;
  uint64_t seed = 0;
  int rounds = 1;  // opening pairs (with -games 2 and -repeat) or games
  int games_per_round = 1;
  bool repeat = false;  // each opening played twice, colours swapped
  int concurrency = 1;
  bool recover = false;  // restart an engine that crashed or hung, and go on
  Adjudication adjudication;
  std::optional<Sprt> sprt;
  std::string pgn_file, log_file;
  int rating_interval = 10;  // print the standing every this many games (0: only at the end)
  int64_t hang_ms = 60000;   // an answer this long past the clock (or at all, without one) is a hang
  // Set (by a signal handler, say) to end the match early: no new opening pair starts, the games
  // under way and the second game of a pair begun are played, and the summary covers them.
  const std::atomic<bool>* interrupt = nullptr;
};

// Reads the command line (without the program's name); on error returns the reason.
std::optional<std::string> parse_arguments(const std::vector<std::string>& args, MatchOptions& options);

// The openings of an EPD or FEN file, one a line, as FENs with move counters ("0 1" added to
// EPD's four fields); on error returns the reason.
std::optional<std::string> read_openings(const std::string& path, std::vector<std::string>& fens);

struct MatchSummary {
  int64_t wins = 0, losses = 0, draws = 0;  // the first engine's
  Pentanomial pairs{};
  int games = 0;
  int failures = 0;  // games an engine lost by crashing, hanging or playing illegally
  int time_losses = 0;
  int failures_of[2] = {0, 0};  // the same, by engine (the first, the second)
  int time_losses_of[2] = {0, 0};
  int64_t ponder_hits = 0, ponder_misses = 0;  // replies a pondering engine expected, or not
  std::optional<double> llr;
  bool stopped_by_sprt = false;
  bool interrupted = false;  // ended early by `interrupt`
};

// Plays the match, printing progress and the summary to `out`. Returns the summary, or nullopt
// (with the reason in *error) when an engine cannot be started or, without `recover`, fails.
std::optional<MatchSummary> run_match(const MatchOptions& options, std::ostream& out, std::string* error);

}  // namespace vblitz::match
