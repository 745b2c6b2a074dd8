// Material and piece-square tables, tapered by the material left (Cray Blitz's phases).
#include "eval/evaluate.h"

#include <algorithm>
#include <cstdlib>

#include "simd/table_scan.h"

namespace vblitz::eval {

namespace {

using namespace core;

constexpr int kValues[PIECE_TYPE_NB] = {0, 100, 300, 300, 500, 900, 0};
constexpr int kPhaseWeight[PIECE_TYPE_NB] = {0, 0, 1, 1, 2, 4, 0};
constexpr int kMaxPhase = 24;

// Distance of a square from the four centre squares (0 in the centre, 3 in a corner).
int center_distance(Square s) {
  int f = file_of(s), r = rank_of(s);
  return std::max(std::max(3 - f, f - 4), std::max(3 - r, r - 4));
}

// Piece-square value for a White piece on s (Black uses the mirrored square), by phase.
int square_bonus(PieceType pt, Square s, bool endgame) {
  const int rank = rank_of(s), file = file_of(s), center = center_distance(s);
  switch (pt) {
    case PAWN: {
      static constexpr int kAdvance[2][8] = {{0, 0, 2, 6, 14, 26, 45, 0}, {0, 0, 6, 14, 28, 50, 85, 0}};
      int bonus = kAdvance[endgame][rank];
      if (!endgame && (file == FILE_D || file == FILE_E) && (rank == RANK_4 || rank == RANK_5)) bonus += 12;
      return bonus;
    }
    case KNIGHT: return endgame ? 12 - 8 * center : 16 - 10 * center;
    case BISHOP: return endgame ? 8 - 4 * center : 10 - 5 * center;
    case ROOK: return !endgame && rank == RANK_7 ? 15 : 0;
    case QUEEN: return endgame ? 10 - 5 * center : 4 - 3 * center;
    case KING: {
      if (endgame) return 24 - 10 * center;
      // Cray Blitz's preferred squares: the back rank, on the knight files or beside them.
      static constexpr int kFile[8] = {10, 20, 5, -10, -10, 0, 20, 10};
      return kFile[file] - 25 * rank;
    }
    default: return 0;
  }
}

// Tables indexed [phase][piece * 64 + square] for the 12 pieces in the order W P..K, B P..K,
// White's entries positive and Black's negative, material included.
struct Tables {
  alignas(64) int32_t value[2][12 * 64];
  Tables() {
    for (int phase = 0; phase < 2; ++phase)
      for (int p = 0; p < 12; ++p)
        for (int s = 0; s < 64; ++s) {
          Color c = Color(p / 6);
          PieceType pt = PieceType(p % 6 + 1);
          Square own_view = relative_square(c, Square(s));
          int v = kValues[pt] + square_bonus(pt, own_view, phase == 1);
          value[phase][p * 64 + s] = c == WHITE ? v : -v;
        }
  }
};

const Tables tables;

}  // namespace

int piece_value(PieceType pt) { return kValues[pt]; }

Breakdown evaluate_white(const Position& pos) {
  uint64_t boards[12];
  int phase = 0;
  for (int p = 0; p < 12; ++p) {
    boards[p] = pos.pieces(Color(p / 6), PieceType(p % 6 + 1));
    phase += kPhaseWeight[p % 6 + 1] * popcount(boards[p]);
  }
  phase = std::min(phase, kMaxPhase);
  Breakdown b;
  b.middlegame = simd::table_sum(tables.value[0], boards, 12);
  b.endgame = simd::table_sum(tables.value[1], boards, 12);
  b.phase = phase;
  b.total = (b.middlegame * phase + b.endgame * (kMaxPhase - phase)) / kMaxPhase;
  return b;
}

int evaluate(const Position& pos) {
  int white = evaluate_white(pos).total;
  return pos.side_to_move() == WHITE ? white : -white;
}

}  // namespace vblitz::eval
