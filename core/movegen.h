// Legal move generation. Every generator emits only legal moves, split the way the search
// consumes them: noisy moves (captures and all promotions), quiet moves, check evasions.
#pragma once

#include <algorithm>
#include <cstddef>

#include "core/position.h"

namespace vblitz::core {

enum GenType {
  NOISY,     // captures (en passant included) and promotions, capturing or not
  QUIET,     // everything else: non-capturing non-promotions and castling
  EVASIONS,  // all legal moves of a position in check
  LEGAL      // all legal moves
};

constexpr int kMaxMoves = 256;

// Writes the legal moves of kind T to `list` and returns one past the last. EVASIONS requires
// the side to move to be in check; NOISY and QUIET are legal in check as well.
template <GenType T>
Move* generate(const Position& pos, Move* list);

// The legal moves of a position as a fixed-capacity list.
template <GenType T>
class MoveList {
 public:
  explicit MoveList(const Position& pos) : last_(generate<T>(pos, moves_)) {}
  const Move* begin() const { return moves_; }
  const Move* end() const { return last_; }
  size_t size() const { return size_t(last_ - moves_); }
  bool contains(Move m) const { return std::find(begin(), end(), m) != end(); }

 private:
  Move moves_[kMaxMoves];
  Move* last_;
};

}  // namespace vblitz::core
