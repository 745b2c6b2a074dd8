// Building books from game collections: a Polyglot .bin (weights as Polyglot's own make-book
// computes them: 2 per win and 1 per draw for the side that played the move) and the statistics
// the extended book turns into bonuses.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <unordered_map>
#include <vector>

#include "book/extended_book.h"
#include "book/pgn.h"
#include "book/polyglot.h"

namespace vblitz::book {

struct BuildOptions {
  int max_ply = 1024;  // only the first max_ply plies of each game (Polyglot's -max-ply)
  int min_games = 3;   // drop moves played fewer times (Polyglot's -min-game)
};

struct BuildReport {
  int games = 0, used = 0;
  std::vector<std::string> skipped;  // "game N (line L): reason", one per skipped game
  size_t positions = 0;              // distinct (position, move) pairs seen
};

class BookBuilder {
 public:
  explicit BookBuilder(const BuildOptions& options) : options_(options) {}

  // Adds every game of the PGN stream; malformed games are listed in the report and skipped.
  void add_pgn(std::istream& in, BuildReport& report);
  // Adds one parsed game; returns the reason it was skipped, if it was.
  std::optional<std::string> add_game(const PgnGame& game);

  // Polyglot entries for the moves played at least min_games times that scored at least a draw
  // once (Polyglot drops weight-0 moves too), sorted by key and, within
  // a position, heaviest first; weights of a position are scaled down together if one would
  // overflow 16 bits.
  std::vector<Entry> polyglot_entries() const;
  // The statistics of every (position, move) with at least min_games plays, as an extended book.
  ExtendedBook extended_book() const;

 private:
  struct PairHash {
    size_t operator()(const std::pair<uint64_t, uint16_t>& k) const {
      return k.first ^ (uint64_t(k.second) << 1);
    }
  };
  BuildOptions options_;
  std::unordered_map<std::pair<uint64_t, uint16_t>, MoveStats, PairHash> stats_;
};

}  // namespace vblitz::book
