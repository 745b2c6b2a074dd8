// `vblitz openings`: distinct legal positions after the asked plies, each scored within the
// bound by an independent search, the same file from the same seed, and bad arguments refused.
#include "data/openings.h"

#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <set>
#include <sstream>

#include "core/game.h"
#include "core/movegen.h"
#include "tests/test_support.h"

namespace vblitz::test {
namespace {

std::vector<std::string> read_lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

data::OpeningsOptions small_set(const std::string& name) {
  data::OpeningsOptions o;
  o.out_path = temp_dir() + "/" + name + ".epd";
  o.count = 8;
  o.plies = 6;
  o.nodes = 2000;
  o.max_score = 40;
  o.seed = 3;
  return o;
}

TEST(Openings, DistinctBalancedPositionsAfterThePlies) {
  const data::OpeningsOptions o = small_set("openings_a");
  std::ostringstream log;
  ASSERT_EQ(data::run_openings(o, log), 0) << log.str();
  const std::vector<std::string> lines = read_lines(o.out_path);
  ASSERT_EQ(lines.size(), 8u);
  std::set<std::string> distinct(lines.begin(), lines.end());
  EXPECT_EQ(distinct.size(), lines.size());
  search::TranspositionTable tt;
  tt.resize(16);
  search::Options options;
  search::Searcher searcher(tt, options);
  for (const std::string& epd : lines) {
    core::Game game;
    ASSERT_FALSE(game.set_fen(epd + " 0 4")) << epd;
    EXPECT_EQ(game.position().side_to_move(), core::WHITE) << epd;  // six plies: White to move
    EXPECT_GT(core::MoveList<core::LEGAL>(game.position()).size(), 0u) << epd;
    search::Limits limits;
    limits.nodes = o.nodes;
    const std::atomic<bool> stop{false};
    tt.clear();
    searcher.clear();
    tt.new_search();
    const search::Result r = searcher.run(game.position(), limits, stop, nullptr);
    EXPECT_LE(std::abs(r.score), o.max_score) << epd;
  }
}

TEST(Openings, SameSeedSameSet) {
  std::ostringstream log;
  data::OpeningsOptions a = small_set("openings_b"), b = small_set("openings_c"), c = small_set("openings_d");
  c.seed = 4;
  ASSERT_EQ(data::run_openings(a, log), 0);
  ASSERT_EQ(data::run_openings(b, log), 0);
  ASSERT_EQ(data::run_openings(c, log), 0);
  EXPECT_EQ(read_lines(a.out_path), read_lines(b.out_path));
  EXPECT_NE(read_lines(a.out_path), read_lines(c.out_path));
}

TEST(Openings, RefusesBadArgumentsAndImpossibleBounds) {
  data::OpeningsOptions o;
  EXPECT_TRUE(data::parse_openings_args({}, o));
  EXPECT_TRUE(data::parse_openings_args({"out.epd", "--count", "0"}, o));
  EXPECT_TRUE(data::parse_openings_args({"out.epd", "--plies"}, o));
  EXPECT_TRUE(data::parse_openings_args({"out.epd", "--frob", "1"}, o));
  ASSERT_FALSE(data::parse_openings_args({"out.epd", "--count", "3", "--seed", "9", "--max-score", "0"}, o));
  EXPECT_EQ(o.count, 3);
  EXPECT_EQ(o.seed, 9u);
  std::ostringstream log;
  o.out_path = "/nonexistent-dir/out.epd";
  EXPECT_EQ(data::run_openings(o, log), 1);
  EXPECT_NE(log.str().find("cannot write"), std::string::npos);
}

}  // namespace
}  // namespace vblitz::test
