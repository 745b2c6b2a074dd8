// Polyglot books: the published key test vectors, the move codec, file checks, and a book that
// never yields an illegal move.
#include "book/polyglot.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

#include "core/game.h"

namespace vblitz::test {
namespace {

core::Game game_after(const std::vector<std::string>& moves,
                      const std::string& fen = core::Position::kStartFen) {
  core::Game game;
  EXPECT_FALSE(game.set_fen(fen));
  EXPECT_FALSE(game.play(moves));
  return game;
}

TEST(PolyglotKey, MatchesThePublishedTestVectors) {
  // From the Polyglot book format specification.
  const std::vector<std::pair<std::vector<std::string>, uint64_t>> vectors = {
      {{}, 0x463b96181691fc9cULL},
      {{"e2e4"}, 0x823c9b50fd114196ULL},
      {{"e2e4", "d7d5"}, 0x0756b94461c50fb0ULL},
      {{"e2e4", "d7d5", "e4e5"}, 0x662fafb965db29d4ULL},
      {{"e2e4", "d7d5", "e4e5", "f7f5"}, 0x22a48b5a8e47ff78ULL},
      {{"e2e4", "d7d5", "e4e5", "f7f5", "e1e2"}, 0x652a607ca3f242c1ULL},
      {{"e2e4", "d7d5", "e4e5", "f7f5", "e1e2", "e8f7"}, 0x00fdd303c946bdd9ULL},
      {{"a2a4", "b7b5", "h2h4", "b5b4", "c2c4"}, 0x3c8123ea7b067637ULL},
      {{"a2a4", "b7b5", "h2h4", "b5b4", "c2c4", "b4c3", "a1a3"}, 0x5c3f9b829b279560ULL},
  };
  for (const auto& [moves, key] : vectors) {
    core::Game game = game_after(moves);
    EXPECT_EQ(book::polyglot_key(game.position()), key) << game.position().fen();
  }
}

TEST(PolyglotKey, EnPassantCountsOnlyWhenACaptureIsPossible) {
  // After 1.e4 d5 no white pawn can take on d6: the same key as without the e.p. square.
  core::Game with_ep = game_after({}, "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2");
  EXPECT_EQ(book::polyglot_key(with_ep.position()), 0x0756b94461c50fb0ULL);
  // After 1.e4 d5 2.e5 f5 the e5 pawn can take on f6: the f-file number is in the key.
  core::Game capture = game_after({"e2e4", "d7d5", "e4e5", "f7f5"});
  core::Game no_ep = game_after({}, "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3");
  EXPECT_NE(book::polyglot_key(capture.position()), book::polyglot_key(no_ep.position()));
}

TEST(PolyglotMove, EncodesCastlingAsKingTakesRookAndPromotionsByPiece) {
  core::Game castle = game_after({}, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  const core::Position& pos = castle.position();
  const core::Move short_castle = pos.parse_uci("e1g1");
  ASSERT_NE(short_castle, core::Move::none());
  EXPECT_EQ(book::encode_move(short_castle), (core::SQ_E1 << 6) | core::SQ_H1);
  EXPECT_EQ(book::decode_move(pos, (core::SQ_E1 << 6) | core::SQ_A1), pos.parse_uci("e1c1"));

  core::Game promote = game_after({}, "8/1P5k/8/8/8/8/8/K7 w - - 0 1");
  const core::Move knight = promote.position().parse_uci("b7b8n");
  EXPECT_EQ(book::encode_move(knight), (1 << 12) | (core::SQ_B7 << 6) | core::SQ_B8);
  EXPECT_EQ(book::decode_move(promote.position(), (4 << 12) | (core::SQ_B7 << 6) | core::SQ_B8),
            promote.position().parse_uci("b7b8q"));
  // A move the position does not allow decodes to none.
  EXPECT_EQ(book::decode_move(promote.position(), (core::SQ_A1 << 6) | core::SQ_A3), core::Move::none());
}

std::vector<book::Entry> start_entries(const std::vector<std::pair<std::string, uint16_t>>& moves) {
  core::Game game;
  std::vector<book::Entry> entries;
  const uint64_t key = book::polyglot_key(game.position());
  for (const auto& [text, weight] : moves) {
    const uint16_t raw =
        uint16_t(((text[1] - '1') * 8 + text[0] - 'a') << 6 | ((text[3] - '1') * 8 + text[2] - 'a'));
    entries.push_back({key, raw, weight, 0});
  }
  return entries;
}

TEST(PolyglotBook, ReadsEntriesAndSkipsIllegalMoves) {
  book::PolyglotBook book;
  // e2e5 is no legal move: it must never come out, however heavy.
  ASSERT_FALSE(
      book.load_bytes(book::write_entries(start_entries({{"e2e5", 60000}, {"e2e4", 30}, {"d2d4", 10}}))));
  core::Game game;
  const std::vector<book::BookMove> moves = book.moves(game.position());
  ASSERT_EQ(moves.size(), 2u);
  EXPECT_EQ(game.position().to_uci(moves[0].move), "e2e4");
  EXPECT_EQ(moves[0].weight, 30);
  std::mt19937_64 rng(1);
  for (int variety : {0, 50, 100})
    for (int i = 0; i < 200; ++i)
      EXPECT_TRUE(game.position().is_legal(book.choose(game.position(), variety, rng)));
  EXPECT_EQ(book.choose(game.position(), 0, rng), moves[0].move);
  // Out of book.
  core::Game other = game_after({"a2a3"});
  EXPECT_EQ(book.choose(other.position(), 100, rng), core::Move::none());
}

TEST(PolyglotBook, VarietyPicksInProportionToTheWeights) {
  book::PolyglotBook book;
  ASSERT_FALSE(book.load_bytes(book::write_entries(start_entries({{"e2e4", 300}, {"d2d4", 100}}))));
  core::Game game;
  std::mt19937_64 rng(7);
  std::map<int, int> e4_count;
  const int draws = 4000;
  for (int variety : {100, 50})
    for (int i = 0; i < draws; ++i)
      e4_count[variety] += game.position().to_uci(book.choose(game.position(), variety, rng)) == "e2e4";
  EXPECT_NEAR(double(e4_count[100]) / draws, 0.75, 0.03);  // 300 : 100
  EXPECT_NEAR(double(e4_count[50]) / draws, 0.90, 0.03);   // squared: 90000 : 10000
  // Variety 1 raises the weights to the 100th power: no overflow, the heaviest nearly always.
  book::PolyglotBook heavy;
  ASSERT_FALSE(heavy.load_bytes(book::write_entries(start_entries({{"e2e4", 60000}, {"d2d4", 59000}}))));
  int heaviest = 0;
  for (int i = 0; i < 100; ++i)
    heaviest += game.position().to_uci(heavy.choose(game.position(), 1, rng)) == "e2e4";
  EXPECT_GT(heaviest, 70);
}

TEST(PolyglotBook, RejectsMissingTruncatedAndUnsortedFilesAndKeepsTheOldBook) {
  book::PolyglotBook book;
  const std::string good = book::write_entries(start_entries({{"e2e4", 1}}));
  ASSERT_FALSE(book.load_bytes(good));
  auto missing = book.load("/nonexistent/book.bin");
  ASSERT_TRUE(missing);
  EXPECT_NE(missing->find("cannot read"), std::string::npos);
  auto truncated = book.load_bytes(good + "abc");
  ASSERT_TRUE(truncated);
  EXPECT_NE(truncated->find("truncated"), std::string::npos);
  std::vector<book::Entry> unsorted = {{2, 0, 1, 0}, {1, 0, 1, 0}};
  auto bad_order = book.load_bytes(book::write_entries(unsorted));
  ASSERT_TRUE(bad_order);
  EXPECT_NE(bad_order->find("not sorted"), std::string::npos);
  EXPECT_TRUE(book.load_bytes(""));
  EXPECT_EQ(book.size(), 1u);  // still the good book
}

}  // namespace
}  // namespace vblitz::test
