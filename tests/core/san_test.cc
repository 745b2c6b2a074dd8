// SAN input on a table of awkward cases: castling spellings, disambiguation, promotions,
// en passant, check marks, and notation that names no move or several.
#include "core/san.h"

#include <gtest/gtest.h>

#include "core/movegen.h"

namespace vblitz::core {
namespace {

struct Case {
  const char* fen;
  const char* san;
  const char* uci;  // expected move, or "" for none
};

TEST(San, ParsesAwkwardNotation) {
  const Case cases[] = {
      {Position::kStartFen, "e4", "e2e4"},
      {Position::kStartFen, "Nf3", "g1f3"},
      {Position::kStartFen, "Nf3!?", "g1f3"},
      {Position::kStartFen, "e5", ""},
      {Position::kStartFen, "Ke2", ""},
      {Position::kStartFen, "xyz", ""},
      {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O", "e1g1"},
      {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "0-0-0", "e1c1"},
      {"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "O-O-O+", "e8c8"},
      {"4k3/8/8/8/8/8/8/R3K2R w - - 0 1", "Rhd1", ""},  // the h-rook cannot reach d1 past the king
      {"4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "Rad1", "a1d1"},
      {"4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "Rfd1", "f1d1"},
      {"4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "Rd1", ""},  // ambiguous
      {"4k3/8/8/R7/8/8/8/R5K1 w - - 0 1", "R1a3", "a1a3"},
      {"4k3/8/8/R7/8/8/8/R5K1 w - - 0 1", "R5a3", "a5a3"},
      {"1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a8=Q+", "a7a8q"},
      {"1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "axb8=N", "a7b8n"},
      {"1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "axb8N", "a7b8n"},
      {"1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a8", ""},  // a promotion must name its piece
      {"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "exd6", "e5d6"},
      {"4k3/8/8/8/8/5q2/8/4K2R w K - 0 1", "O-O", ""},  // castling through check
  };
  for (const Case& c : cases) {
    StateInfo si;
    Position pos;
    ASSERT_FALSE(pos.set(c.fen, si)) << c.fen;
    Move m = parse_san(pos, c.san);
    EXPECT_EQ(m == Move::none() ? "" : pos.to_uci(m), std::string(c.uci)) << c.san << " in " << c.fen;
  }
}

TEST(San, WritesTheShortestUnambiguousFormThatReadsBack) {
  const Case cases[] = {
      {Position::kStartFen, "Nf3", "g1f3"},
      {"4k3/8/8/8/8/8/8/R4RK1 w - - 0 1", "Rad1", "a1d1"},
      {"4k3/8/8/R7/8/8/8/R5K1 w - - 0 1", "R1a3", "a1a3"},
      {"6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "Ra8#", "a1a8"},
      {"k7/8/8/8/8/2Q1Q3/8/2Q1K3 w - - 0 1", "Qc3d2", "c3d2"},  // three queens: file and rank needed
      {"1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "axb8=Q+", "a7b8q"},
      {"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "exd6", "e5d6"},
      {"r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "O-O-O", "e8c8"},
  };
  for (const Case& c : cases) {
    StateInfo si;
    Position pos;
    ASSERT_FALSE(pos.set(c.fen, si)) << c.fen;
    const Move m = pos.parse_uci(c.uci);
    ASSERT_NE(m, Move::none()) << c.uci;
    EXPECT_EQ(to_san(pos, m), c.san) << c.fen;
  }
  // Every legal move of the perft suites' positions reads back from its SAN.
  for (const char* fen :
       {Position::kStartFen, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"}) {
    StateInfo si;
    Position pos;
    ASSERT_FALSE(pos.set(fen, si));
    for (Move m : MoveList<LEGAL>(pos))
      EXPECT_EQ(parse_san(pos, to_san(pos, m)), m) << to_san(pos, m) << " in " << fen;
  }
}

}  // namespace
}  // namespace vblitz::core
