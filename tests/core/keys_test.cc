// Incremental keys against keys computed from scratch along random playouts, and make/unmake
// restoring the position and every key exactly.
#include <gtest/gtest.h>

#include "core/movegen.h"
#include "core/prng.h"
#include "tests/test_support.h"

namespace vblitz::test {
namespace {

using namespace core;

struct Snapshot {
  std::string fen;
  Key key, pawn_key, pawn_king_key, material_key;
  Bitboard checkers;
  explicit Snapshot(const Position& p)
      : fen(p.fen()),
        key(p.key()),
        pawn_key(p.pawn_key()),
        pawn_king_key(p.pawn_king_key()),
        material_key(p.material_key()),
        checkers(p.checkers()) {}
  bool operator==(const Snapshot&) const = default;
};

TEST(Keys, IncrementalKeysEqualScratchKeysAlongRandomPlayouts) {
  Prng rng(2024);
  int plies_checked = 0;
  for (const std::string& fen : suite_fens()) {
    StateInfo states[41];
    Move played[40];
    Position pos;
    ASSERT_FALSE(pos.set(fen, states[0]));
    Snapshot root(pos);
    int ply = 0;
    for (; ply < 40; ++ply) {
      MoveList<LEGAL> moves(pos);
      if (moves.size() == 0) break;
      bool null_move = !pos.in_check() && rng.below(10) == 0;
      played[ply] = null_move ? Move::null() : *(moves.begin() + rng.below(moves.size()));
      if (null_move)
        pos.do_null_move(states[ply + 1]);
      else
        pos.do_move(played[ply], states[ply + 1]);
      ASSERT_EQ(pos.consistency_error(), "") << fen << " after " << pos.to_uci(played[ply]);
      ++plies_checked;
    }
    while (ply-- > 0) {
      if (played[ply] == Move::null())
        pos.undo_null_move();
      else
        pos.undo_move(played[ply]);
    }
    EXPECT_TRUE(Snapshot(pos) == root) << fen;
    EXPECT_EQ(pos.consistency_error(), "") << fen;
  }
  EXPECT_GT(plies_checked, 20000);
}

// key_after (the prefetch key) is exact for every move that is not special: no castling, en
// passant or promotion, no castling right lost, no en passant square before or after it.
TEST(Keys, KeyAfterIsExactForOrdinaryMoves) {
  Prng rng(99);
  int exact = 0;
  for (const std::string& fen : suite_fens()) {
    StateInfo states[21];
    Position pos;
    ASSERT_FALSE(pos.set(fen, states[0]));
    for (int ply = 0; ply < 20; ++ply) {
      MoveList<LEGAL> moves(pos);
      if (moves.size() == 0) break;
      for (Move m : moves) {
        StateInfo st;
        const Key predicted = pos.key_after(m);
        const int rights = pos.castling_rights();
        const bool ep_before = pos.ep_square() != SQ_NONE;
        pos.do_move(m, st);
        if (m.kind() == Move::NORMAL && rights == pos.castling_rights() && !ep_before &&
            pos.ep_square() == SQ_NONE) {
          ASSERT_EQ(predicted, pos.key()) << pos.fen();
          ++exact;
        }
        pos.undo_move(m);
      }
      pos.do_move(*(moves.begin() + rng.below(moves.size())), states[ply + 1]);
    }
  }
  EXPECT_GT(exact, 100000);
}

TEST(Keys, TranspositionsShareKeysAndDifferentPositionsDoNot) {
  auto key_after = [](std::initializer_list<const char*> moves) {
    StateInfo states[16];
    Position pos;
    pos.set(Position::kStartFen, states[0]);
    int i = 0;
    for (const char* text : moves) pos.do_move(pos.parse_uci(text), states[++i]);
    return std::array<Key, 4>{pos.key(), pos.pawn_key(), pos.pawn_king_key(), pos.material_key()};
  };
  EXPECT_EQ(key_after({"g1f3", "g8f6", "b1c3", "b8c6"}), key_after({"b1c3", "b8c6", "g1f3", "g8f6"}));
  auto a = key_after({"e2e4", "e7e5"}), b = key_after({"e2e3", "e7e5"});
  EXPECT_NE(a[0], b[0]);
  EXPECT_NE(a[1], b[1]);
  EXPECT_EQ(a[3], b[3]);  // same material
  auto knight_out = key_after({"g1f3"}), knight_back = key_after({"g1f3", "g8f6", "f3g1", "f6g8"});
  EXPECT_EQ(key_after({}), knight_back);
  EXPECT_EQ(knight_out[2], key_after({})[2]);  // pawns and kings unchanged
}

TEST(Keys, SideToMoveAndCastlingRightsChangeTheKey) {
  StateInfo a, b, c;
  Position white, black, no_castle;
  white.set("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", a);
  black.set("4k3/8/8/8/8/8/8/R3K2R b KQ - 0 1", b);
  no_castle.set("4k3/8/8/8/8/8/8/R3K2R w - - 0 1", c);
  EXPECT_NE(white.key(), black.key());
  EXPECT_NE(white.key(), no_castle.key());
  EXPECT_EQ(white.pawn_key(), no_castle.pawn_key());
}

}  // namespace
}  // namespace vblitz::test
