// Attack tables against ray-walking oracles and hand-checked squares.
#include "core/bitboard.h"

#include <gtest/gtest.h>

#include "core/prng.h"

namespace vblitz::core {
namespace {

TEST(Bitboard, SliderLookupsMatchRayWalk) {
  Prng rng(42);
  for (int sq = 0; sq < 64; ++sq) {
    Square s = Square(sq);
    for (int i = 0; i < 2000; ++i) {
      Bitboard occupied = rng.next() & rng.next();
      ASSERT_EQ(rook_attacks(s, occupied), slow_slider_attacks(ROOK, s, occupied)) << sq;
      ASSERT_EQ(bishop_attacks(s, occupied), slow_slider_attacks(BISHOP, s, occupied)) << sq;
    }
  }
}

TEST(Bitboard, StepAttacksOfKnownSquares) {
  EXPECT_EQ(knight_attacks(SQ_A1), square_bb(SQ_B3) | square_bb(SQ_C2));
  EXPECT_EQ(popcount(knight_attacks(SQ_E4)), 8);
  EXPECT_EQ(popcount(king_attacks(SQ_H8)), 3);
  EXPECT_EQ(pawn_attacks(WHITE, SQ_E4), square_bb(SQ_D5) | square_bb(SQ_F5));
  EXPECT_EQ(pawn_attacks(BLACK, SQ_A5), square_bb(SQ_B4));
  EXPECT_EQ(rook_attacks(SQ_A1, 0), (kFileABB | kRank1BB) & ~square_bb(SQ_A1));
}

TEST(Bitboard, BetweenAndLine) {
  EXPECT_EQ(between_bb(SQ_A1, SQ_D4), square_bb(SQ_B2) | square_bb(SQ_C3) | square_bb(SQ_D4));
  EXPECT_EQ(between_bb(SQ_A1, SQ_B3), square_bb(SQ_B3));  // not on a line: just the target
  EXPECT_EQ(line_bb(SQ_C1, SQ_C5), file_bb(FILE_C));
  EXPECT_EQ(line_bb(SQ_A1, SQ_B3), 0u);
  EXPECT_TRUE(aligned(SQ_A1, SQ_H8, SQ_D4));
  EXPECT_FALSE(aligned(SQ_A1, SQ_H8, SQ_D5));
}

}  // namespace
}  // namespace vblitz::core
