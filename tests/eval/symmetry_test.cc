// Colour symmetry as a property, term by term: over thousands of positions from random
// playouts and the perft suites (rooks, queens and kings on every rank, castling rights, en
// passant squares), every evaluation term White gets in a position equals what Black gets in
// the colour-flipped position, and the other way round; the totals flip sign; the pawn and
// king-safety hash entries flip too. A sum over the whole board can hide a term that is wrong
// for one colour (the rook on the seventh rank once looked at the wrong rank for Black).
#include <gtest/gtest.h>

#include <bit>
#include <random>

#include "core/game.h"
#include "core/movegen.h"
#include "eval/evaluate.h"
#include "eval/king_safety.h"
#include "eval/pawns.h"
#include "tests/test_support.h"

namespace vblitz::eval {
namespace {

// The positions: the suites, then random playouts from positions rich in heavy pieces.
std::vector<std::string> property_positions() {
  std::vector<std::string> fens = test::suite_fens();
  const char* starts[] = {
      core::Position::kStartFen,
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8",
      "2r2rk1/1p1q1ppp/p2p4/3Pp3/4P3/1P3Q2/P4PPP/2RR2K1 w - - 0 20",
      "4k3/pppppppp/8/8/8/8/PPPPPPPP/R2QK2R w KQ - 0 1",
  };
  std::mt19937_64 rng(2024);
  for (int game = 0; game < 150; ++game) {
    core::Game g;
    if (g.set_fen(starts[game % std::size(starts)])) continue;
    for (int ply = 0; ply < 80; ++ply) {
      core::MoveList<core::LEGAL> moves(g.position());
      if (moves.size() == 0) break;
      const core::Move m = *(moves.begin() + long(rng() % moves.size()));
      if (g.play({g.position().to_uci(m)})) break;
      fens.push_back(g.position().fen());
    }
  }
  return fens;
}

core::Bitboard flip(core::Bitboard b) { return __builtin_bswap64(b); }  // ranks mirrored

TEST(Symmetry, EveryTermAndHashEntryFlipsWithTheColours) {
  int positions = 0, with_rook_on_seventh = 0;
  // One evaluator a side for every position: a traced evaluation bypasses the hashes, so nothing
  // carries over (a fresh one a position, with its tables, took 340 s under ASan).
  Evaluator evaluator, flipped_evaluator;
  for (const std::string& fen : property_positions()) {
    core::Game game, mirror;
    ASSERT_FALSE(game.set_fen(fen));
    ASSERT_FALSE(mirror.set_fen(game.position().flipped_fen()));
    const core::Position& pos = game.position();
    const core::Position& flipped = mirror.position();
    Trace a, b;
    const int total = evaluator.evaluate_white(pos, &a);
    const int flipped_total = flipped_evaluator.evaluate_white(flipped, &b);
    ASSERT_EQ(total, -flipped_total) << fen;
    for (int t = 0; t < kTermCount; ++t) {
      ASSERT_EQ(a.term[t][core::WHITE], b.term[t][core::BLACK])
          << term_name(Term(t)) << " for White in " << fen;
      ASSERT_EQ(a.term[t][core::BLACK], b.term[t][core::WHITE])
          << term_name(Term(t)) << " for Black in " << fen;
    }
    with_rook_on_seventh += a.term[int(Term::rook_seventh)][core::BLACK] != Score();

    PawnEntry pawns, flipped_pawns;
    compute_pawns(pos, default_params(), pawns, nullptr);
    compute_pawns(flipped, default_params(), flipped_pawns, nullptr);
    KingEntry kings, flipped_kings;
    compute_king_safety(pos, default_params(), kings, nullptr);
    compute_king_safety(flipped, default_params(), flipped_kings, nullptr);
    for (core::Color c : {core::WHITE, core::BLACK}) {
      ASSERT_EQ(pawns.score[c], flipped_pawns.score[~c]) << fen;
      ASSERT_EQ(pawns.passed[c], flip(flipped_pawns.passed[~c])) << fen;
      ASSERT_EQ(pawns.isolated[c], flip(flipped_pawns.isolated[~c])) << fen;
      ASSERT_EQ(pawns.attacks[c], flip(flipped_pawns.attacks[~c])) << fen;
      ASSERT_EQ(kings.shelter[c], flipped_kings.shelter[~c]) << fen;
      ASSERT_EQ(kings.center[c], flipped_kings.center[~c]) << fen;
    }
    ++positions;
  }
  EXPECT_GT(positions, 10000);
  EXPECT_GT(with_rook_on_seventh, 20);  // the property reaches the term that was wrong
}

}  // namespace
}  // namespace vblitz::eval
