// The book options through the UCI loop: book moves, leaving the book, bad book files, the
// extended book's bonuses and the parameter blocks.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "book/book_builder.h"
#include "core/game.h"
#include "tests/test_support.h"
#include "tests/uci/session.h"
#include "uci/uci.h"

namespace vblitz::test {
namespace {

// The bestmove of the output's last search.
std::string last_bestmove(const std::string& out) {
  size_t at = out.rfind("bestmove ");
  return at == std::string::npos ? "" : out.substr(at + 9, out.find_first_of(" \n", at + 9) - at - 9);
}

// Writes a book with `moves` (UCI, weight) for the position after `played` from the start.
std::string write_book(const std::string& name, const std::vector<std::string>& played,
                       const std::vector<std::pair<std::string, uint16_t>>& moves) {
  core::Game game;
  EXPECT_FALSE(game.play(played));
  std::vector<book::Entry> entries;
  for (const auto& [text, weight] : moves) {
    const uint16_t raw =
        uint16_t(((text[1] - '1') * 8 + text[0] - 'a') << 6 | ((text[3] - '1') * 8 + text[2] - 'a'));
    entries.push_back({book::polyglot_key(game.position()), raw, weight, 0});
  }
  const std::string path = temp_dir() + "/" + name;
  std::ofstream(path, std::ios::binary) << book::write_entries(entries);
  return path;
}

TEST(UciBook, PlaysBookMovesThenSearchesWithTheOpeningsBlock) {
  const std::string path = write_book("vblitz_start.bin", {}, {{"e2e4", 10}, {"e2e5", 9999}});
  const std::string out =
      waiting_session({"setoption name OwnBook value true", "setoption name BookFile value " + path,
                       "setoption name BookVariety value 0", "position startpos", "go depth 3",
                       "position startpos moves e2e4", "go depth 3"});
  EXPECT_TRUE(contains(out, "info string book " + path + ": 2 entries")) << out;
  EXPECT_TRUE(contains(out, "info string book move e2e4 (weight 10 of 10)\nbestmove e2e4\n")) << out;
  // Out of book: a search, with the block of the 1.e4 family.
  EXPECT_TRUE(contains(out, "info string parameter block e4 (out of book after 1.e2e4)")) << out;
  core::Game after_e4;
  ASSERT_FALSE(after_e4.play({"e2e4"}));
  EXPECT_NE(after_e4.position().parse_uci(last_bestmove(out)), core::Move::none()) << out;
}

TEST(UciBook, BookDepthOwnBookAndPonderLimitTheBook) {
  const std::string path = write_book("vblitz_e4e5.bin", {"e2e4", "e7e5"}, {{"g1f3", 5}});
  const std::string setup = "setoption name BookFile value " + path;
  const std::string position = "position startpos moves e2e4 e7e5";
  EXPECT_TRUE(contains(waiting_session({"setoption name OwnBook value true", setup, position, "go depth 2"}),
                       "info string book move g1f3"));
  EXPECT_FALSE(contains(waiting_session({"setoption name OwnBook value true", setup,
                                         "setoption name BookDepth value 1", position, "go depth 2"}),
                        "book move"));
  EXPECT_FALSE(contains(waiting_session({setup, position, "go depth 2"}), "book move"));  // OwnBook is off
  std::ostringstream out;
  {
    uci::Engine engine(out);
    for (const std::string& line : {std::string("setoption name OwnBook value true"), setup,
                                    std::string(position), std::string("go ponder depth 2")})
      engine.handle(line);
    engine.handle("stop");
  }
  EXPECT_FALSE(contains(out.str(), "book move")) << out.str();
  EXPECT_TRUE(contains(out.str(), "bestmove ")) << out.str();
}

TEST(UciBook, BadBookFilesAreReportedAndTheEnginePlaysOn) {
  const std::string truncated = temp_dir() + "/vblitz_truncated.bin";
  std::ofstream(truncated, std::ios::binary) << "0123456789abcdefXYZ";
  const std::string illegal_only = write_book("vblitz_illegal.bin", {}, {{"e2e5", 100}, {"a1a8", 50}});
  for (const auto& [file, message] : std::vector<std::pair<std::string, std::string>>{
           {"/nonexistent/book.bin",
            "info string error: BookFile: cannot read '/nonexistent/book.bin'; playing "
            "without a book"},
           {truncated, "info string error: BookFile: truncated: 19 bytes"},
           {illegal_only, "info string book " + illegal_only + ": 2 entries"}}) {
    const std::string out =
        waiting_session({"setoption name OwnBook value true", "setoption name BookFile value " + file,
                         "position startpos", "go depth 2"});
    EXPECT_TRUE(contains(out, message)) << out;
    EXPECT_FALSE(contains(out, "book move")) << out;
    core::Game start;
    EXPECT_NE(start.position().parse_uci(last_bestmove(out)), core::Move::none()) << out;
  }
  const std::string bad_values =
      waiting_session({"setoption name BookDepth value 0", "setoption name BookVariety value 101",
                       "setoption name OwnBook value maybe", "setoption name ParamBlock value e5"});
  EXPECT_TRUE(contains(bad_values, "error: BookDepth takes moves from 1 to 255, not '0'")) << bad_values;
  EXPECT_TRUE(contains(bad_values, "error: BookVariety takes a percentage from 0 to 100, not '101'"));
  EXPECT_TRUE(contains(bad_values, "error: OwnBook takes true or false, not 'maybe'"));
  EXPECT_TRUE(contains(bad_values, "error: ParamBlock takes auto, default, e4, d4 or flank, not 'e5'"));
}

TEST(UciBook, ExtendedBookOffsetsTheRootAndShowsItsBonuses) {
  book::BookBuilder builder({1024, 1});
  book::BuildReport report;
  std::ifstream pgn(data_file("book_test.pgn"));
  builder.add_pgn(pgn, report);
  const std::string path = temp_dir() + "/vblitz_extended.txt";
  std::ofstream(path) << builder.extended_book().write();
  const std::string out =
      waiting_session({"setoption name ExtendedBook value " + path, "position startpos", "d", "go depth 4"});
  EXPECT_TRUE(contains(out, "\nExtended book:\n  e2e4 +")) << out;
  EXPECT_TRUE(contains(out, "info string extended book bonus e2e4 +")) << out;
  const std::string bad = waiting_session({"setoption name ExtendedBook value /nonexistent/x.txt"});
  EXPECT_TRUE(contains(bad, "info string error: ExtendedBook: cannot read")) << bad;
}

TEST(UciBook, ParamBlocksChangeTheEvaluationAndLoadFromParamFiles) {
  // Parameter blocks are the classic evaluation's: its final line is the one compared.
  const std::string classic = "setoption name EvalMode value classic";
  const std::string position =
      "position fen r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8";
  auto final_eval = [](const std::string& out) {
    size_t at = out.rfind("Final evaluation:");
    return at == std::string::npos ? std::string() : out.substr(at, out.find('\n', at) - at);
  };
  const std::string base = final_eval(waiting_session({classic, position, "eval"}));
  const std::string e4 =
      waiting_session({classic, "setoption name ParamBlock value e4", position, "eval", "d"});
  EXPECT_TRUE(contains(e4, "info string parameter block e4 (ParamBlock)")) << e4;
  EXPECT_TRUE(contains(e4, "Parameter block: e4")) << e4;
  EXPECT_NE(final_eval(e4), base);
  EXPECT_EQ(final_eval(waiting_session({classic, "setoption name ParamBlock value e4",
                                        "setoption name ParamBlock value default", position, "eval"})),
            base);

  const std::string path = temp_dir() + "/vblitz_blocks.txt";
  std::ofstream(path) << "bishop_mobility 3 3\n[d4]\nbishop_mobility 9 9\n";
  const std::string d4 = waiting_session(
      {"setoption name ParamFile value " + path, "setoption name ParamBlock value d4", position, "eval"});
  EXPECT_NE(final_eval(d4), base);
  std::ofstream(path) << "mobility 2 2\n[e5]\nmobility 7 7\n";
  const std::string bad = waiting_session({classic, "setoption name ParamFile value " + path});
  EXPECT_TRUE(contains(bad, "line 2: unknown block '[e5]'")) << bad;
}

}  // namespace
}  // namespace vblitz::test
