// Child batches: the board core::child_board makes for every legal move against the position
// do_move makes, along random playouts of the perft suites (captures, promotions, castling and
// en passant all occur), and the cases left to the scalar path (an en passant square, Chess960).
#include "core/child_boards.h"

#include <gtest/gtest.h>

#include "core/movegen.h"
#include "core/prng.h"
#include "tests/test_support.h"

namespace vblitz::test {
namespace {

using namespace core;

// The child's mover's castling rooks, as the builder stores them (before mirroring).
Bitboard castling_rooks(const Position& pos, Color c) {
  Bitboard rooks = 0;
  for (bool king_side : {true, false})
    if (pos.can_castle(castling_right(c, king_side)))
      rooks |= square_bb(pos.castling_rook_square(castling_right(c, king_side)));
  return rooks;
}

// `board` against `child`, seen from its side to move (Black's boards mirrored).
void expect_board_is(const ChildBoard& board, const Position& child) {
  const Color us = child.side_to_move();
  auto seen = [us](Bitboard b) { return us == BLACK ? __builtin_bswap64(b) : b; };
  EXPECT_EQ(board.us, seen(child.pieces(us))) << child.fen();
  EXPECT_EQ(board.them, seen(child.pieces(~us))) << child.fen();
  EXPECT_EQ(board.pawns, seen(child.pieces(PAWN))) << child.fen();
  EXPECT_EQ(board.knights, seen(child.pieces(KNIGHT))) << child.fen();
  EXPECT_EQ(board.diagonal, seen(child.pieces(BISHOP, QUEEN))) << child.fen();
  EXPECT_EQ(board.orthogonal, seen(child.pieces(ROOK, QUEEN))) << child.fen();
  EXPECT_EQ(board.kings, seen(child.pieces(KING))) << child.fen();
  EXPECT_EQ(board.castling, seen(castling_rooks(child, us))) << child.fen();
}

// The children of pos against do_move; returns the (batched, refused) children.
std::pair<int, int> check_children(Position& pos) {
  ChildBatch batch;
  start_batch(pos, batch);
  int refused = 0;
  for (Move m : MoveList<LEGAL>(pos)) {
    const bool to_scalar = gives_en_passant_square(pos, m);
    if (!to_scalar) add_child(batch, m);
    StateInfo st;
    pos.do_move(m, st);
    EXPECT_EQ(to_scalar, pos.ep_square() != SQ_NONE) << pos.fen();
    if (!to_scalar) expect_board_is(child_board(batch, batch.size - 1), pos);
    refused += to_scalar;
    pos.undo_move(m);
  }
  pad(batch);
  for (size_t i = batch.size; i % kChildLanePad; ++i) EXPECT_EQ(batch.moves[i], 0u);
  return {int(batch.size), refused};
}

// Standard positions: many playouts from each (the suites are mostly Chess960, which the builder
// leaves to the scalar path).
TEST(ChildBoards, EveryChildEqualsTheMadeMoveAlongPlayouts) {
  Prng rng(41);
  int batched = 0, refused = 0, chess960 = 0;
  for (const std::string& fen : suite_fens()) {
    StateInfo states[21];
    Position pos;
    ASSERT_FALSE(pos.set(fen, states[0]));
    if (pos.is_chess960()) {
      EXPECT_FALSE(batchable(pos)) << fen;
      ++chess960;
      continue;
    }
    for (int playout = 0; playout < 12; ++playout) {
      ASSERT_FALSE(pos.set(fen, states[0]));
      for (int ply = 0; ply < 20; ++ply) {
        ASSERT_TRUE(batchable(pos)) << pos.fen();
        const auto [in_batch, left_out] = check_children(pos);
        batched += in_batch;
        refused += left_out;
        const MoveList<LEGAL> moves(pos);
        if (moves.size() == 0) break;
        pos.do_move(*(moves.begin() + rng.below(moves.size())), states[ply + 1]);
      }
    }
  }
  EXPECT_GT(batched, 500000);
  EXPECT_GT(refused, 1000);
  EXPECT_GT(chess960, 900);
}

}  // namespace
}  // namespace vblitz::test
