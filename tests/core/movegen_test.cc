// Move generation: the noisy/quiet/evasion split against the full legal list, the move count
// (count_legal) against the list, legality of every move (own king never left in check), and
// colour-mirror symmetry.
#include "core/movegen.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "core/perft.h"
#include "core/prng.h"
#include "tests/test_support.h"

namespace vblitz::test {
namespace {

using namespace core;

std::set<uint16_t> raw_set(const Move* begin, const Move* end) {
  std::set<uint16_t> s;
  for (const Move* m = begin; m != end; ++m) s.insert(m->raw());
  return s;
}

// Checks the split and each move's legality in one position.
void check_split(Position& pos) {
  MoveList<LEGAL> all(pos);
  MoveList<NOISY> noisy(pos);
  MoveList<QUIET> quiet(pos);
  ASSERT_EQ(noisy.size() + quiet.size(), all.size()) << pos.fen();
  ASSERT_EQ(size_t(count_legal(pos)), all.size()) << "count_legal in " << pos.fen();
  std::set<uint16_t> joined = raw_set(noisy.begin(), noisy.end());
  for (Move m : quiet) joined.insert(m.raw());
  ASSERT_EQ(joined, raw_set(all.begin(), all.end())) << pos.fen();
  for (Move m : noisy) EXPECT_TRUE(pos.is_capture(m) || m.kind() == Move::PROMOTION) << pos.to_uci(m);
  for (Move m : quiet) EXPECT_FALSE(pos.is_capture(m) || m.kind() == Move::PROMOTION) << pos.to_uci(m);
  if (pos.in_check()) {
    MoveList<EVASIONS> evasions(pos);
    EXPECT_EQ(raw_set(evasions.begin(), evasions.end()), raw_set(all.begin(), all.end()));
  }
  Color us = pos.side_to_move();
  const Position::CheckSquares check_squares = pos.check_squares();
  for (Move m : all) {
    StateInfo st;
    const bool predicted_check = pos.gives_check(m);
    EXPECT_EQ(pos.gives_check(m, check_squares), predicted_check)
        << "gives_check with check squares of " << pos.to_uci(m) << " in " << pos.fen();
    pos.do_move(m, st);
    EXPECT_FALSE(pos.attackers_to(pos.king_square(us)) & pos.pieces(~us))
        << "illegal " << pos.to_uci(m) << " in " << pos.fen();
    EXPECT_EQ(predicted_check, pos.in_check())
        << "gives_check of " << pos.to_uci(m) << " after " << pos.fen();
    pos.undo_move(m);
  }
}

// gives_check against playing the move, on the rare kinds: castling, en passant, promotion,
// discovered checks. Each FEN has at least one checking move of that kind.
TEST(MoveGen, GivesCheckOnSpecialMoves) {
  const char* fens[] = {
      "5k2/8/8/8/8/8/8/4K2R w K - 0 1",      // O-O checks along the f-file
      "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1",      // O-O-O checks along the d-file
      "8/8/8/1k1pP2R/8/8/8/4K3 w - d6 0 1",  // exd6 e.p. opens the fifth rank
      "8/8/2k5/3pP3/8/8/8/4K3 w - d6 0 1",   // exd6 e.p. checks with the pawn
      "6k1/4P3/8/8/8/8/8/4K3 w - - 0 1",     // e8=Q and e8=R check, e8=N and e8=B do not
      "3n2k1/4P3/8/8/8/8/8/4K3 w - - 0 1",   // promotions with and without a capture
      "4k3/8/8/8/4N3/8/8/4R2K w - - 0 1",    // every knight move discovers check
      "nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/NRBKQBRN w GBgb - 0 1",  // Chess960, no checks
  };
  int checks = 0;
  for (const char* fen : fens) {
    StateInfo root;
    Position pos;
    ASSERT_EQ(pos.set(fen, root, std::string(fen).find("nrbkq") == 0), std::nullopt) << fen;
    for (Move m : MoveList<LEGAL>(pos)) {
      StateInfo st;
      const bool predicted = pos.gives_check(m);
      EXPECT_EQ(pos.gives_check(m, pos.check_squares()), predicted) << pos.to_uci(m) << " in " << fen;
      pos.do_move(m, st);
      EXPECT_EQ(predicted, pos.in_check()) << pos.to_uci(m) << " in " << fen;
      checks += pos.in_check();
      pos.undo_move(m);
    }
  }
  EXPECT_GE(checks, 12);
}

TEST(MoveGen, SplitIsExactAndEveryMoveLegalAlongPlayouts) {
  Prng rng(7);
  int positions = 0;
  for (const std::string& fen : suite_fens()) {
    StateInfo states[25];
    Position pos;
    ASSERT_FALSE(pos.set(fen, states[0]));
    for (int ply = 0; ply < 24; ++ply) {
      check_split(pos);
      ++positions;
      MoveList<LEGAL> moves(pos);
      if (moves.size() == 0) break;
      pos.do_move(*(moves.begin() + rng.below(moves.size())), states[ply + 1]);
    }
  }
  EXPECT_GT(positions, 20000);
}

// is_legal(m) must equal membership in the generated list for every 16-bit code: all
// ordinary moves along playouts, and all codes (promotions, en passant, castling) in some.
TEST(MoveGen, IsLegalAgreesWithTheGeneratedListForEveryMoveCode) {
  Prng rng(11);
  int positions = 0, full = 0, legal_count = 0;
  for (const std::string& fen : suite_fens()) {
    StateInfo states[13];
    Position pos;
    ASSERT_FALSE(pos.set(fen, states[0]));
    for (int ply = 0; ply < 12; ++ply) {
      MoveList<LEGAL> moves(pos);
      std::vector<bool> listed(65536);
      for (Move m : moves) listed[m.raw()] = true;
      const int codes = positions++ % 100 == 0 ? 65536 : 4096;
      full += codes == 65536;
      for (int raw = 0; raw < codes; ++raw) {
        const Move m{uint16_t(raw)};
        ASSERT_EQ(pos.is_legal(m), listed[size_t(raw)])
            << pos.to_uci(m) << " (" << raw << ") in " << pos.fen();
        legal_count += listed[size_t(raw)];
      }
      for (Move m : moves) ASSERT_TRUE(pos.is_legal(m)) << pos.to_uci(m) << " in " << pos.fen();
      if (moves.size() == 0) break;
      pos.do_move(*(moves.begin() + rng.below(moves.size())), states[ply + 1]);
    }
  }
  EXPECT_GT(positions, 5000);
  EXPECT_GT(full, 50);
  EXPECT_GT(legal_count, 100000);
}

TEST(MoveGen, MirroredPositionsHaveEqualPerft) {
  const std::vector<PerftCase> suite = load_perft_suite(data_file("ethereal_standard.epd"));
  EXPECT_EQ(suite.size(), 128u);  // the whole suite, not an empty or cut file
  for (const PerftCase& c : suite) {
    StateInfo a, b;
    Position pos, mirrored;
    ASSERT_FALSE(pos.set(c.fen, a));
    ASSERT_FALSE(mirrored.set(pos.flipped_fen(), b)) << pos.flipped_fen();
    EXPECT_EQ(perft(pos, 3), perft(mirrored, 3)) << c.fen;
  }
}

TEST(MoveGen, KnownSpecialCases) {
  struct Case {
    const char* fen;
    size_t legal;
  } cases[] = {
      // counts checked against Stockfish 15.1's `go perft 1`
      // En passant would expose the king along the rank: not allowed.
      {"8/8/8/KPp4r/8/8/8/7k w - c6 0 2", 4},
      // En passant capture of the checking pawn is the only non-king answer.
      {"8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1", 9},
      // Double check: only king moves.
      {"4k3/8/8/8/8/5n2/8/r3K3 w - - 0 1", 2},
      // Chess960: the castling rook shields the king's destination; castling is illegal.
      {"8/8/8/8/8/8/8/qRK4k w B - 0 1", 4},
  };
  for (const Case& c : cases) {
    StateInfo si;
    Position pos;
    ASSERT_FALSE(pos.set(c.fen, si)) << c.fen;
    EXPECT_EQ(MoveList<LEGAL>(pos).size(), c.legal) << c.fen;
  }
}

TEST(MoveGen, UciNotationRoundTripsAndCastlingFollowsTheVariant) {
  StateInfo a, b;
  Position standard, fischer;
  standard.set("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", a);
  fischer.set("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", b, true);
  EXPECT_NE(standard.parse_uci("e1g1"), Move::none());
  EXPECT_EQ(standard.to_uci(standard.parse_uci("e1g1")), "e1g1");
  EXPECT_EQ(standard.parse_uci("e1h1"), standard.parse_uci("e1g1"));  // king-takes-rook accepted
  EXPECT_EQ(fischer.to_uci(fischer.parse_uci("e1h1")), "e1h1");
  EXPECT_EQ(standard.parse_uci("e1e3"), Move::none());
  EXPECT_EQ(standard.parse_uci("garbage"), Move::none());
  for (Move m : MoveList<LEGAL>(standard)) EXPECT_EQ(standard.parse_uci(standard.to_uci(m)), m);
}

}  // namespace
}  // namespace vblitz::test
