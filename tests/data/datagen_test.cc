// Self-play data: every written position is quiet and labelled with its game's result, and the
// PGN of the same games reads back through the PGN reader move for move.
#include "data/datagen.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "book/pgn.h"
#include "core/game.h"
#include "search/search.h"
#include "tests/test_support.h"

namespace vblitz::test {
namespace {

// Options for a short run writing `name`.txt in the test directory.
data::DatagenOptions small_run(const std::string& name, int games, uint64_t nodes, int threads) {
  data::DatagenOptions o;
  o.out_path = temp_dir() + "/" + name + ".txt";
  o.games = games;
  o.nodes = nodes;
  o.threads = threads;
  return o;
}

TEST(Datagen, ParsesItsArguments) {
  data::DatagenOptions o;
  ASSERT_FALSE(data::parse_datagen_args({"out.txt", "--games", "12", "--nodes", "300", "--threads", "2"}, o));
  EXPECT_EQ(o.out_path, "out.txt");
  EXPECT_EQ(o.games, 12);
  EXPECT_EQ(o.nodes, 300u);
  EXPECT_EQ(o.threads, 2);
  EXPECT_TRUE(data::parse_datagen_args({}, o));
  EXPECT_TRUE(data::parse_datagen_args({"out.txt", "--games", "0"}, o));
  EXPECT_TRUE(data::parse_datagen_args({"out.txt", "--games"}, o));
  EXPECT_TRUE(data::parse_datagen_args({"out.txt", "--bogus", "1"}, o));
  // One node per move (never zero, which would mean no limit) still ends its game.
  const data::DatagenOptions one = small_run("vblitz_datagen_one", 1, 1, 1);
  std::ostringstream log;
  EXPECT_EQ(data::run_datagen(one, log), 0) << log.str();
}

TEST(Datagen, WritesQuietLabelledPositionsAndReadablePgn) {
  data::DatagenOptions o = small_run("vblitz_datagen", 6, 300, 2);
  o.pgn_path = temp_dir() + "/vblitz_datagen.pgn";
  std::ostringstream log;
  ASSERT_EQ(data::run_datagen(o, log), 0) << log.str();
  EXPECT_NE(log.str().find("games 6/6"), std::string::npos) << log.str();

  // The PGN: six games that replay legally, each with a decided or drawn result.
  std::ifstream pgn(o.pgn_path);
  book::PgnReader reader(pgn);
  book::PgnGame game;
  std::string reason;
  std::map<std::string, std::string> result_of_position;  // FEN (4 fields) -> label of its game
  int games = 0;
  while (reader.next(game, reason) == book::PgnReader::Status::kGame) {
    ++games;
    ASSERT_NE(book::points_for(game.result, core::WHITE), -1) << game.result;
    const std::string label = game.result == "1-0" ? "[1.0]" : game.result == "0-1" ? "[0.0]" : "[0.5]";
    ASSERT_FALSE(book::replay(game, [&](const core::Position& pos, core::Move, int, bool, int) {
      std::string fen = pos.fen();
      result_of_position[fen] = label;
    }));
  }
  EXPECT_EQ(games, 6);

  // The data: quiet positions of those games, labelled with their game's result.
  std::ifstream data(o.out_path);
  int lines = 0;
  search::TranspositionTable tt;
  tt.resize(1);
  search::Options options;
  search::Searcher searcher(tt, options);
  for (std::string line; std::getline(data, line); ++lines) {
    const size_t cut = line.rfind(' ');
    const std::string fen = line.substr(0, cut), label = line.substr(cut + 1);
    ASSERT_TRUE(result_of_position.count(fen)) << line;
    EXPECT_EQ(result_of_position[fen], label) << line;
    core::Game g;
    ASSERT_FALSE(g.set_fen(fen));
    EXPECT_FALSE(g.position().in_check()) << line;
    tt.clear();
    EXPECT_TRUE(searcher.quiet_eval(g.position())) << line;
  }
  EXPECT_GT(lines, 20);
}

}  // namespace
}  // namespace vblitz::test
