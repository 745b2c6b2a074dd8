// Books built from PGN: the game accounting, Polyglot weights, a write-read round trip, the same
// book as Polyglot's own make-book (when installed), and the extended book's bonuses.
#include "book/book_builder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <tuple>

#include "core/game.h"
#include "tests/test_support.h"

namespace vblitz::test {
namespace {

book::BookBuilder build(const std::string& file, book::BuildReport& report, book::BuildOptions options = {}) {
  book::BookBuilder builder(options);
  std::ifstream in(data_file(file));
  EXPECT_TRUE(in) << file;
  builder.add_pgn(in, report);
  return builder;
}

core::Game game_after(const std::vector<std::string>& moves) {
  core::Game game;
  EXPECT_FALSE(game.play(moves));
  return game;
}

TEST(BookBuilder, UsesTheGoodGamesAndReportsEachBrokenOne) {
  book::BuildReport report;
  build("book_test.pgn", report, {1024, 1});
  EXPECT_EQ(report.games, 11);
  EXPECT_EQ(report.used, 6);
  // Where each broken game starts, or where the parser noticed (the next game's first tag for
  // the unclosed variation), as grep -n shows in the file.
  const std::vector<std::string> expected = {
      "game 6 (line 47): line 50: 'Ke3' is not a legal move (ply 3)",
      "game 7 (line 57): a variation is not closed",
      "game 8 (line 60): unexpected '@@@'",
      "game 9 (line 62): no result ('*')",
      "game 10 (line 67): malformed tag pair",
  };
  EXPECT_EQ(report.skipped, expected);
}

TEST(BookBuilder, WeighsMovesLikePolyglotAndRoundTrips) {
  book::BuildReport report;
  book::BookBuilder builder = build("book_test.pgn", report, {1024, 1});
  book::PolyglotBook book;
  ASSERT_FALSE(book.load_bytes(book::write_entries(builder.polyglot_entries())));
  core::Game start;
  std::string moves;
  for (const book::BookMove& b : book.moves(start.position()))
    moves += start.position().to_uci(b.move) + ":" + std::to_string(b.weight) + " ";
  // 1.e4: won twice, drawn once (2 + 2 + 1); 1.Nf3 drawn once; 1.d4 lost once (weight 0: dropped).
  EXPECT_EQ(moves, "e2e4:5 g1f3:1 ");
  // Variation moves are not book moves: after 3.Bb5 only the game move 3...a6 is there.
  core::Game ruy = game_after({"e2e4", "e7e5", "g1f3", "b8c6", "f1b5"});
  EXPECT_EQ(book.moves(ruy.position()).size(), 0u);  // Black lost that game
  // max-ply and min-games cut the book.
  book::BuildReport short_report;
  book::BookBuilder short_builder = build("book_test.pgn", short_report, {1, 2});
  const std::vector<book::Entry> first_ply = short_builder.polyglot_entries();
  ASSERT_EQ(first_ply.size(), 1u);
  EXPECT_EQ(first_ply[0].weight, 5);
}

TEST(BookBuilder, MatchesPolyglotMakeBook) {
  const char* polyglot = "/usr/games/polyglot";
  if (!std::filesystem::exists(polyglot)) GTEST_SKIP() << "polyglot is not installed";
  const std::string out = temp_dir() + "/vblitz_polyglot_book.bin";
  const std::string command = std::string(polyglot) + " make-book -pgn " + data_file("book_startpos.pgn") +
                              " -bin " + out + " -min-game 1 > /dev/null 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0);
  std::ifstream in(out, std::ios::binary);
  std::stringstream theirs_bytes;
  theirs_bytes << in.rdbuf();
  std::remove(out.c_str());

  book::BuildReport report;
  book::BookBuilder builder = build("book_startpos.pgn", report, {1024, 1});
  ASSERT_TRUE(report.skipped.empty());
  auto as_tuples = [](const std::string& bytes) {
    std::vector<std::tuple<uint64_t, uint16_t, uint16_t>> t;
    for (size_t i = 0; i + 16 <= bytes.size(); i += 16) {
      uint64_t key = 0;
      for (int b = 0; b < 8; ++b) key = key << 8 | uint8_t(bytes[i + b]);
      t.emplace_back(key, uint16_t(uint8_t(bytes[i + 8]) << 8 | uint8_t(bytes[i + 9])),
                     uint16_t(uint8_t(bytes[i + 10]) << 8 | uint8_t(bytes[i + 11])));
    }
    std::sort(t.begin(), t.end());
    return t;
  };
  const auto theirs = as_tuples(theirs_bytes.str());
  EXPECT_EQ(theirs.size(), 72u);
  EXPECT_EQ(as_tuples(book::write_entries(builder.polyglot_entries())), theirs);
}

TEST(ExtendedBook, BonusesFollowFrequencyResultsAndAnnotations) {
  book::BuildReport report;
  book::BookBuilder builder = build("book_test.pgn", report, {1024, 1});
  const book::ExtendedBook extended = builder.extended_book();
  // At the start: e4 (3 games, 5/6 points) ahead of Nf3 (1 draw) ahead of d4 (1 loss).
  core::Game start;
  const std::vector<book::Bonus> at_start = extended.bonuses(start.position());
  ASSERT_EQ(at_start.size(), 3u);
  EXPECT_EQ(start.position().to_uci(at_start[0].move), "e2e4");
  EXPECT_EQ(start.position().to_uci(at_start[1].move), "g1f3");
  EXPECT_EQ(start.position().to_uci(at_start[2].move), "d2d4");
  EXPECT_GT(at_start[0].centipawns, at_start[1].centipawns);
  EXPECT_GT(at_start[1].centipawns, at_start[2].centipawns);
  for (const book::Bonus& b : at_start) EXPECT_LE(std::abs(b.centipawns), book::kMaxBonus);
  // After 3.Bb5: the game move a6 is ahead of the annotator's suggestion Nf6.
  core::Game ruy = game_after({"e2e4", "e7e5", "g1f3", "b8c6", "f1b5"});
  const std::vector<book::Bonus> ruy_bonus = extended.bonuses(ruy.position());
  ASSERT_EQ(ruy_bonus.size(), 2u);
  EXPECT_EQ(ruy.position().to_uci(ruy_bonus[0].move), "a7a6");
  EXPECT_EQ(ruy_bonus[1].stats.variations, 1u);
  EXPECT_EQ(ruy_bonus[0].stats.last_year, 2020);
  EXPECT_EQ(ruy_bonus[0].stats.elo_sum, 2400u);
  book::ExtendedBook read_back;
  ASSERT_FALSE(read_back.read(extended.write()));
  EXPECT_EQ(read_back.write(), extended.write());
  EXPECT_EQ(read_back.bonuses(start.position())[0].centipawns, at_start[0].centipawns);
}

TEST(ExtendedBook, RejectsMalformedFilesAndKeepsTheOldOne) {
  book::ExtendedBook extended;
  ASSERT_FALSE(extended.read("463b96181691fc9c 31c 3 5 0 0 2020 0 0\n"));
  EXPECT_TRUE(extended.read("463b96181691fc9c 31c three 5 0 0 2020 0 0\n"));
  EXPECT_TRUE(extended.read("463b96181691fc9c 31c 1 5 0 0 2020 0 0\n"));  // 5 points from 1 game
  EXPECT_TRUE(extended.read("# only a comment\n"));
  EXPECT_TRUE(extended.read("463b96181691fc9c 31c 3 5 0 300000000 2020 0 0\n"));  // annotation out of range
  EXPECT_TRUE(extended.read("463b96181691fc9c 31c 3 5 0 0 -2147483648 0 0\n"));   // year out of range
  EXPECT_TRUE(extended.read("463b96181691fc9c 31c 3 5 0 0 2020 9000 1\n"));       // a 9000 rating
  EXPECT_TRUE(extended.load("/nonexistent/extended.txt"));
  EXPECT_EQ(extended.size(), 1u);
}

}  // namespace
}  // namespace vblitz::test
