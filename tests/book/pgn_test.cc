// The PGN reader on a table of awkward inputs: what it keeps, and why it skips what it skips.
#include "book/pgn.h"

#include <gtest/gtest.h>

#include <sstream>

namespace vblitz::test {
namespace {

using Status = book::PgnReader::Status;

// Reads the first game of `text`; `reason` gets the skip reason, if any.
Status read_one(const std::string& text, book::PgnGame& game, std::string& reason) {
  std::istringstream in(text);
  book::PgnReader reader(in);
  return reader.next(game, reason);
}

std::string main_line(const book::PgnGame& game) {
  std::string out;
  for (const book::PgnMove& m : game.moves) out += (out.empty() ? "" : " ") + m.san;
  return out;
}

// The main line replayed into UCI moves, or the replay error.
std::string replayed(const book::PgnGame& game) {
  std::string out;
  auto err = book::replay(game, [&](const core::Position& pos, core::Move m, int, bool main, int) {
    if (main) {
      if (!out.empty()) out += ' ';
      out += pos.to_uci(m);
    }
  });
  return err ? "error: " + *err : out;
}

TEST(Pgn, AcceptsTheVariantsOfSan) {
  struct Case {
    std::string text, uci;
  };
  const Case cases[] = {
      {"1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.0-0 Be7 1/2-1/2",
       "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7"},
      {"1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6?? 4. Qxf7# 1-0", "e2e4 e7e5 d1h5 b8c6 f1c4 g8f6 h5f7"},
      {"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. d4 exd4 6. Qxd4 Qxd4 7. Nxd4 Bd7 8. Be3 O-O-O "
       "9. Nd2 Re8 10. O-O-O *",
       "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5c6 d7c6 d2d4 e5d4 d1d4 d8d4 f3d4 c8d7 c1e3 e8c8 b1d2 d8e8 e1c1"},
      {"[FEN \"4k3/1P6/8/3pP3/8/8/8/R3K2R w KQ d6 0 1\"]\n1. exd6 e.p. Kd7 2. b8=N+ Kxd6 3. Rad1+ Kc7 "
       "4. bxa8=N *",
       "error: line 2: 'bxa8=N' is not a legal move (ply 7)"},
      {"[FEN \"4k3/1P6/8/3pP3/8/8/8/R3K2R w KQ d6 0 1\"]\n1. exd6 e.p. Kd7 2. b8N Kxd6 3. R1d1+ *",
       "e5d6 e8d7 b7b8n d7d6 a1d1"},
      {"[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]\n1... e5 2. Nf3 *", "e7e5 g1f3"},
      {"1.d4 Nf6 2.c4 e6 3.Nc3 Bb4 4.Qc2 O-O 5.a3 Bxc3+ 6.Qxc3 b6 7.Bg5 Bb7 8.f3 h6 9.Bh4 d5 10.e3 Nbd7 0-1",
       "d2d4 g8f6 c2c4 e7e6 b1c3 f8b4 d1c2 e8g8 a2a3 b4c3 c2c3 b7b6 c1g5 c8b7 f2f3 h7h6 g5h4 d7d5 e2e3 b8d7"},
  };
  for (const Case& c : cases) {
    book::PgnGame game;
    std::string reason;
    ASSERT_EQ(read_one(c.text, game, reason), Status::kGame) << c.text << ": " << reason;
    EXPECT_EQ(replayed(game), c.uci) << c.text;
  }
}

TEST(Pgn, KeepsCommentsOutAndVariationsNagsAndTagsIn) {
  const std::string text =
      "[Event \"A \\\"quoted\\\" name\"]\n[Result \"1-0\"]\n"
      "1. e4 {a comment (with parentheses) } (1. d4 d5 (1... Nf6) 2. c4) 1... e5 $1 ; to the end ( of line\n"
      "2. Nf3! Nc6?? 3. Bb5 $4 a6!? 1-0\n";
  book::PgnGame game;
  std::string reason;
  ASSERT_EQ(read_one(text, game, reason), Status::kGame) << reason;
  EXPECT_EQ(game.tag("Event"), "A \"quoted\" name");
  EXPECT_EQ(game.result, "1-0");
  EXPECT_EQ(main_line(game), "e4 e5 Nf3 Nc6 Bb5 a6");
  ASSERT_EQ(game.moves[0].variations.size(), 1u);
  const auto& variation = game.moves[0].variations[0];
  ASSERT_EQ(variation.size(), 3u);
  EXPECT_EQ(variation[1].san, "d5");
  ASSERT_EQ(variation[1].variations.size(), 1u);
  EXPECT_EQ(variation[1].variations[0][0].san, "Nf6");
  const int annotations[] = {0, 1, 1, -2, -2, 0};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(game.moves[i].annotation, annotations[i]) << game.moves[i].san;
  EXPECT_EQ(game.moves[2].line, 4);
  // Variations are replayed from the position before the move they replace.
  std::vector<std::string> side_lines;
  ASSERT_FALSE(book::replay(game, [&](const core::Position& pos, core::Move m, int ply, bool main, int) {
    if (!main) side_lines.push_back(std::to_string(ply) + ":" + pos.to_uci(m));
  }));
  EXPECT_EQ(side_lines, (std::vector<std::string>{"0:d2d4", "1:g8f6", "1:d7d5", "2:c2c4"}));
}

// "(e5 (e5 (e5 ..." n levels deep.
std::string nested_variations(int n) {
  std::string text;
  for (int i = 0; i < n; ++i) text += "(e5 ";
  return text;
}

TEST(Pgn, SkipsBrokenGamesWithTheirLineAndReasonAndReadsOn) {
  struct Case {
    std::string text, reason;
  };
  const Case cases[] = {
      {"1. e4 ) e5 1-0", "game 1 (line 1): ')' without '('"},
      {"( 1. e4 ) 1-0", "game 1 (line 1): a variation before any move"},
      {"1. e4 } e5 1-0", "game 1 (line 1): '}' without '{'"},
      {"1. e4 {a {nested} comment} e5 1-0", "game 1 (line 1): unexpected 'comment'"},
      {"1. e4 " + nested_variations(300) + "1-0", "game 1 (line 1): variations nested too deeply"},
      {"1. e4 e5\n2. Nf3 {unterminated\nand on", "game 1 (line 2): unterminated comment"},
      {"\n1. e4 e5 2. Nf3 @@@ 1-0", "game 1 (line 2): unexpected '@@@'"},
      {"[Event \"x]\n1. e4 1-0", "game 1 (line 1): malformed tag pair"},
      {"1. d4 d5 (1... Nf6 2. c4 0-1\n\n[Event \"next\"]\n1. e4 *",
       "game 1 (line 3): a variation is not closed"},
  };
  for (const Case& c : cases) {
    std::istringstream in(c.text + "\n\n[Event \"after\"]\n[Result \"1-0\"]\n1. c4 1-0\n");
    book::PgnReader reader(in);
    book::PgnGame game;
    std::string reason;
    EXPECT_EQ(reader.next(game, reason), Status::kSkipped) << c.text;
    EXPECT_EQ(reason, c.reason) << c.text;
    // The reader goes on: the following game (if the broken one did not swallow it) is whole.
    Status next = reader.next(game, reason);
    while (next == Status::kGame && game.tag("Event") != "after") next = reader.next(game, reason);
    if (c.reason.find("unterminated") == std::string::npos) {
      ASSERT_EQ(next, Status::kGame) << c.text;
      EXPECT_EQ(main_line(game), "c4");
    }
  }
}

TEST(Pgn, AnUnterminatedCommentAtTheEndOfInputEndsReading) {
  // Found by the fuzzer: with no newline at the end, the reader used to see the comment forever.
  std::istringstream in("[Event \"x\"]\n1. e4 {never closed");
  book::PgnReader reader(in);
  book::PgnGame game;
  std::string reason;
  EXPECT_EQ(reader.next(game, reason), Status::kSkipped);
  EXPECT_EQ(reason, "game 1 (line 2): unterminated comment");
  EXPECT_EQ(reader.next(game, reason), Status::kEnd);
}

TEST(Pgn, ReplayReportsIllegalMovesAndBadFen) {
  book::PgnGame game;
  std::string reason;
  ASSERT_EQ(read_one("[Result \"1-0\"]\n\n1. e4 e5\n2. Ke3 1-0", game, reason), Status::kGame);
  EXPECT_EQ(replayed(game), "error: line 4: 'Ke3' is not a legal move (ply 3)");
  ASSERT_EQ(read_one("1. e4 (1. d5) e5 1-0", game, reason), Status::kGame);
  EXPECT_EQ(replayed(game), "error: line 1: 'd5' is not a legal move (ply 1, in a variation)");
  ASSERT_EQ(read_one("[FEN \"not a fen\"]\n1. e4 1-0", game, reason), Status::kGame);
  EXPECT_EQ(replayed(game).rfind("error: bad FEN tag", 0), 0u);
}

TEST(Pgn, WrittenGamesReadBack) {
  const std::string fen = "r3k2r/6P1/8/3pP3/8/8/8/R3K2R w KQkq d6 0 30";
  core::Position pos;
  core::StateInfo st;
  ASSERT_FALSE(pos.set(fen, st));
  std::vector<core::Move> moves;
  std::vector<core::StateInfo> states(8);
  for (const char* uci : {"e5d6", "e8c8", "g7h8q", "d8h8", "e1c1"}) {
    moves.push_back(pos.parse_uci(uci));
    ASSERT_NE(moves.back(), core::Move::none()) << uci;
    pos.do_move(moves.back(), states[moves.size()]);
  }
  const std::string text =
      book::write_pgn({{"Event", "a \"quoted\" event"}, {"Result", "1-0"}}, fen, moves, "1-0");
  EXPECT_NE(text.find("30. exd6 O-O-O 31. gxh8=Q Rxh8 32. O-O-O 1-0"), std::string::npos) << text;
  book::PgnGame game;
  std::string reason;
  ASSERT_EQ(read_one(text, game, reason), Status::kGame) << reason;
  EXPECT_EQ(game.tag("Event"), "a \"quoted\" event");
  EXPECT_EQ(game.tag("FEN"), fen);
  EXPECT_EQ(replayed(game), "e5d6 e8c8 g7h8q d8h8 e1c1");
}

}  // namespace
}  // namespace vblitz::test
