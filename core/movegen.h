// Legal move generation. Every generator emits only legal moves, split the way the search
// consumes them: noisy moves (captures and all promotions), quiet moves, check evasions.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "core/position.h"

namespace vblitz::core {

enum GenType {
  NOISY,     // captures (en passant included) and promotions, capturing or not
  QUIET,     // everything else: non-capturing non-promotions and castling
  EVASIONS,  // all legal moves of a position in check
  LEGAL      // all legal moves
};

constexpr int kMaxMoves = 256;
// Room past the last move that a vector serializer may overwrite (its widest vector).
constexpr int kMoveListSlack = 128;

// A move serializer: writes move = to * to_factor + base for every square in `targets`,
// ascending, to `out` and returns the count (the contract of simd::serialize). The SIMD layer
// installs its kernel here; null selects core's own pop-lsb loop. Set it only while no search
// or perft runs.
using MoveSerializer = size_t (*)(uint64_t targets, uint16_t to_factor, uint16_t base, uint16_t* out);
void set_move_serializer(MoveSerializer serializer);

// A piece-move counter: the number of moves of the knights in `knights` and the sliders in
// `orthogonal` (rooks, queens) and `diagonal` (bishops, queens) to squares of `target`, with
// `occupied` blocking the sliders; the pieces must not be pinned. The SIMD layer installs its
// vector kernel here (simd/move_count.h); null selects count_piece_moves. Set it only while no
// search or perft runs.
using PieceMoveCounter = int (*)(Bitboard orthogonal, Bitboard diagonal, Bitboard knights, Bitboard occupied,
                                 Bitboard target);
void set_piece_move_counter(PieceMoveCounter counter);
// The plain counter: each piece's attack set from the lookup tables, masked and counted.
int count_piece_moves(Bitboard orthogonal, Bitboard diagonal, Bitboard knights, Bitboard occupied,
                      Bitboard target);

// The number of legal moves of pos, equal to MoveList<LEGAL>(pos).size(), counted set-wise
// without writing the moves (perft's last ply).
int count_legal(const Position& pos);

// Writes the legal moves of kind T to `list` and returns one past the last; `list` needs room
// for kMaxMoves + kMoveListSlack moves. EVASIONS requires
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
  Move moves_[kMaxMoves + kMoveListSlack];
  Move* last_;
};

}  // namespace vblitz::core
