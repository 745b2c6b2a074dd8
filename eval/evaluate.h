// Static evaluation. This first slice holds Cray Blitz's material values and piece-square
// tables tapered between middlegame and endgame; the table sums run on the SIMD table-scan
// kernel (or its scalar twin). The remaining Cray Blitz and Deep Blue terms build on it.
#pragma once

#include "core/position.h"

namespace vblitz::eval {

constexpr int kPawnValue = 100;  // Cray Blitz: pawn 1,000 points, minor 3,000, rook 5,000, queen 9,000

// Material in centipawns of one piece type (king 0).
int piece_value(core::PieceType pt);

// Score of the position in centipawns from the side to move's point of view.
int evaluate(const core::Position& pos);

// The same from White's point of view, split into its parts (for the `eval` command).
struct Breakdown {
  int middlegame;  // material + piece-square, White minus Black
  int endgame;
  int phase;  // 24 with all pieces on the board, 0 with none
  int total;  // tapered: (middlegame * phase + endgame * (24 - phase)) / 24
};
Breakdown evaluate_white(const core::Position& pos);

}  // namespace vblitz::eval
