// Self-play data for tuning: fast fixed-node games on all cores, from an opening set, writing
// the quiet positions with the game's result (and optionally the games as PGN).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace vblitz::tune {

struct DatagenOptions {
  std::string out_path;       // "FEN [1.0|0.5|0.0]" lines, result from White's side
  std::string pgn_path;       // the games as PGN ("" = none)
  std::string openings_path;  // EPD/FEN lines to start from ("" = the standard start)
  int games = 1000;
  uint64_t nodes = 5000;  // per move, varied by up to 20% from game to game
  int random_plies = 4;   // random legal moves after the opening, for variety
  int threads = 0;        // 0 = all cores (OpenMP's default)
  uint64_t seed = 1;
};

// Parses the arguments after "datagen": OUT.txt [--games N] [--nodes N] [--openings FILE]
// [--pgn FILE] [--random-plies N] [--threads N] [--seed N]. Returns the error, if any.
std::optional<std::string> parse_datagen_args(const std::vector<std::string>& args, DatagenOptions& options);

// Plays the games and writes the files; progress goes to `log`. Returns the exit status.
int run_datagen(const DatagenOptions& options, std::ostream& log);

}  // namespace vblitz::tune
