// Deep Blue's extended book: statistics from a game collection turned into a bonus (up to half
// a pawn) for each move played in a position; the search offsets the root window by it, so a
// move strong players chose is preferred unless it searches clearly worse.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/position.h"

namespace vblitz::book {

// What a game collection says about one move in one position.
struct MoveStats {
  uint32_t games = 0;       // times played in a game's main line
  uint32_t points = 0;      // 2 per win, 1 per draw for the side that played it (main line)
  uint32_t variations = 0;  // times suggested in an annotator's variation
  int32_t annotation = 0;   // sum of !! +2, ! +1, ? -1, ?? -2
  int32_t last_year = 0;    // most recent game's year (0: unknown)
  uint64_t elo_sum = 0;     // ratings of the players who played it, where known
  uint32_t elo_count = 0;

  void merge(const MoveStats& o);
};

struct Bonus {
  core::Move move;
  int centipawns;
  MoveStats stats;
};

constexpr int kMaxBonus = 50;  // half a pawn, as in Deep Blue

class ExtendedBook {
 public:
  static constexpr uintmax_t kMaxFileBytes = uintmax_t(1) << 28;  // text, about 5M moves
  void add(uint64_t key, uint16_t move, const MoveStats& stats);
  // Text form: a header, then "key move games points variations annotation year elo_sum
  // elo_count" per line (key in hex, move as Polyglot's 16 bits in hex).
  std::string write() const;
  // Reads the text form; on a missing file, one that is not a regular file or is larger than
  // kMaxFileBytes, or a malformed line returns the reason and leaves the book as it was.
  std::optional<std::string> load(const std::string& path);
  std::optional<std::string> read(const std::string& text);
  void clear() { moves_.clear(); }
  bool empty() const { return moves_.empty(); }
  size_t size() const;

  // The bonus of every legal move of pos the collection knows, largest first.
  std::vector<Bonus> bonuses(const core::Position& pos) const;

 private:
  std::map<uint64_t, std::vector<std::pair<uint16_t, MoveStats>>> moves_;
  int newest_year_ = 0;
};

}  // namespace vblitz::book
