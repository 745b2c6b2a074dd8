// Self-play data: fast fixed-node games on all cores, from an opening set. Two outputs:
// - text, for the Texel tuner: the quiet positions as "FEN [1.0|0.5|0.0]" (result from White's
//   side), optionally with the games as PGN;
// - packed, for network training: 32-byte records (data/packed_position.h) with the search
//   score and the result, in shards of a directory; a run resumes where it stopped; or the same
//   records as game chains (`chain`, data/game_chain.h), one .vbc file a shard.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "search/search.h"

namespace vblitz::data {

// kChain: the packed records of each shard as a game chain (data/game_chain.h), about a twelfth of
// the size.
enum class DataFormat { kText, kPacked, kChain };

struct DatagenOptions {
  std::string out_path;       // text: the output file; packed: the shard directory
  std::string pgn_path;       // text only: the games as PGN ("" = none)
  std::string openings_path;  // EPD/FEN lines to start from ("" = the standard start)
  DataFormat format = DataFormat::kText;
  int games = 1000;       // packed: rounded up to whole shards
  uint64_t nodes = 5000;  // per move, varied by up to 20% from game to game
  int random_plies = 4;   // random legal moves after the opening, for variety
  int threads = 0;        // 0 = all cores (OpenMP's default)
  uint64_t seed = 1;
  search::EvalMode eval_mode = search::kDefaultEvalMode;  // the players' evaluation
  // --- packed format only ---
  int min_ply = 16;             // positions are kept from this many plies after the opening on
  int max_opening_score = 400;  // games whose first searched position scores more are dropped
  int shard_games = 256;        // games per shard file
};

// Parses the arguments after "datagen": OUT [--format text|packed|chain] [--games N] [--nodes N]
// [--openings FILE] [--pgn FILE] [--random-plies N] [--threads N] [--seed N] [--min-ply N]
// [--max-opening-score CP] [--shard-games N]. Returns the error, if any.
std::optional<std::string> parse_datagen_args(const std::vector<std::string>& args, DatagenOptions& options);

// The usage line of `vblitz datagen`.
std::string datagen_usage();

// Plays the games and writes the files; progress goes to `log`. Returns the exit status; adds
// the positions written to *positions if given.
int run_datagen(const DatagenOptions& options, std::ostream& log, long* positions = nullptr);

// The FEN part (first four fields) of every line of an EPD or FEN file (none if unreadable).
std::vector<std::string> read_openings(const std::string& path);

// Ends a self-play game by the searches' scores (White's view): a winning score held for
// several plies in a row wins, a near-zero one held long after move 40 draws.
class Adjudicator {
 public:
  // After the search of the position with `plies` moves played; "1-0", "0-1", "1/2-1/2" or "".
  std::string after_search(int white_score, int plies);

 private:
  int winning_streak_ = 0, quiet_streak_ = 0;
};
constexpr int kMaxGamePlies = 400;  // longer self-play games are drawn

// The shard file of a packed run: OUT/seed<seed>-<shard, six digits>.vbd (.vbc for chains).
std::string shard_path(const DatagenOptions& options, int shard);

}  // namespace vblitz::data
