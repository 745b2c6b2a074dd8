// FEN and EPD: round trips over the suites, and a table of malformed FENs with their reasons.
#include <gtest/gtest.h>

#include "core/position.h"
#include "tests/test_support.h"

namespace vblitz::test {
namespace {

using core::Position;
using core::StateInfo;

TEST(Fen, RoundTripsEverySuitePosition) {
  std::vector<std::string> fens = suite_fens();
  ASSERT_GT(fens.size(), 1000u);
  for (const std::string& fen : fens) {
    StateInfo si;
    Position pos;
    ASSERT_FALSE(pos.set(fen, si)) << fen;
    EXPECT_EQ(pos.fen(), fen);
    EXPECT_EQ(pos.consistency_error(), "") << fen;
  }
}

TEST(Fen, EpdWithFourFieldsGetsDefaultCounters) {
  StateInfo si;
  Position pos;
  ASSERT_FALSE(pos.set("4k3/8/8/8/8/8/8/4K2R w K -", si));
  EXPECT_EQ(pos.fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
}

TEST(Fen, XFenAndShredderFenDescribeTheSameChess960Position) {
  StateInfo a, b;
  Position x, shredder;
  // Outer rooks on b1/g1: X-FEN says KQkq, Shredder-FEN names the files.
  ASSERT_FALSE(x.set("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1", a));
  ASSERT_FALSE(shredder.set("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1", b));
  EXPECT_TRUE(x.is_chess960());
  EXPECT_EQ(x.key(), shredder.key());
  EXPECT_EQ(x.fen(), shredder.fen());
}

TEST(Fen, EnPassantSquareKeptOnlyWhenACaptureIsPossible) {
  StateInfo a, b;
  Position pos;
  ASSERT_FALSE(pos.set("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3", a));
  EXPECT_EQ(pos.ep_square(), core::SQ_E3);
  ASSERT_FALSE(pos.set("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", b));
  EXPECT_EQ(pos.ep_square(), core::SQ_NONE);
}

struct BadFen {
  const char* fen;
  const char* reason;  // a fragment the error message must contain
};

const BadFen kBadFens[] = {
    {"", "fields"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "7 ranks"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1", "more than 8 ranks"},
    {"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "empty-square count '9'"},
    {"rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "7 files"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1", "more than 8 files"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "unknown piece letter 'X'"},
    {"rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "Black has no king"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBKR w kq - 0 1", "White has more than one king"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "castling right 'K'"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w KQkq - 0 1", "White has no king"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqX - 0 1", "castling letter"},
    {"rnbqkbnr/pppppppp/8/8/8/4K3/PPPPPPPP/RNBQ1BNR w KQkq - 0 1", "king is not on its first rank"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKkq - 0 1", "given twice"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "en passant square e3 is impossible"},
    {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1", "en passant square e4 is impossible"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1", "not a square"},
    {"rnbqkbnr/pppp1ppp/8/4p3/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - x 1", "halfmove clock"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -3", "fullmove number"},
    {"4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", "side not to move (Black) is in check"},
    {"4k2P/8/8/8/8/8/8/4K3 w - - 0 1", "pawn on the first or last rank (h8)"},
    {"4k3/8/8/8/8/8/8/p3K3 b - - 0 1", "pawn on the first or last rank (a1)"},
    {"4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", "more than 8 pawns"},
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", "fields"},
};

TEST(Fen, MalformedFensAreRejectedWithTheirReasonAndThePositionKept) {
  StateInfo si;
  Position pos;
  const std::string kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
  ASSERT_FALSE(pos.set(kiwipete, si));
  for (const BadFen& bad : kBadFens) {
    StateInfo other;
    auto err = pos.set(bad.fen, other);
    ASSERT_TRUE(err.has_value()) << "accepted: " << bad.fen;
    EXPECT_NE(err->find(bad.reason), std::string::npos) << bad.fen << " -> " << *err;
    EXPECT_EQ(pos.fen(), kiwipete);
    EXPECT_EQ(pos.consistency_error(), "");
  }
}

}  // namespace
}  // namespace vblitz::test
