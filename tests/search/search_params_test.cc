// The search's tunable parameters: one declaration with sane ranges, a file format that round
// trips and refuses bad lines, and values that reach the search.
#include "search/search_params.h"

#include <gtest/gtest.h>

#include <atomic>
#include <set>

#include "core/game.h"
#include "search/search.h"

namespace vblitz::search {
namespace {

TEST(SearchParams, EachIsDeclaredOnceWithItsValueInsideItsRange) {
  const SearchParams defaults;
  std::set<std::string> names;
  for (const TunableParam& p : tunable_params()) {
    EXPECT_TRUE(names.insert(p.name).second) << p.name;
    EXPECT_EQ(defaults.*p.field, p.value) << p.name;
    EXPECT_LE(p.min, p.value) << p.name;
    EXPECT_LE(p.value, p.max) << p.name;
    EXPECT_GT(p.step, 0.0) << p.name;
    EXPECT_LE(p.step, (p.max - p.min) / 4.0) << p.name;
    EXPECT_EQ(find_param(p.name), &p);
  }
  EXPECT_EQ(find_param("no_such_parameter"), nullptr);
}

TEST(SearchParams, FilesRoundTripAndBadLinesChangeNothing) {
  SearchParams changed;
  changed.futility_margin = 123;
  changed.aspiration_window = 40;
  SearchParams read;
  ASSERT_FALSE(read_search_params(write_search_params(changed), read));
  EXPECT_TRUE(read == changed);

  SearchParams partial;  // unnamed parameters keep their values; comments and blank lines pass
  ASSERT_FALSE(read_search_params("# tuned\n\nfutility_margin 210  # was 200\n", partial));
  EXPECT_EQ(partial.futility_margin, 210);
  EXPECT_EQ(partial.reverse_futility_margin, SearchParams().reverse_futility_margin);

  for (const char* bad : {"futility_margin\n", "futility_margin x\n", "futility_margin 5 6\n",
                          "futility_margin 100000\n", "no_such_parameter 3\n"}) {
    SearchParams kept = changed;
    const std::string text = std::string("aspiration_window 11\n") + bad;
    const auto err = read_search_params(text, kept);
    ASSERT_TRUE(err) << bad;
    EXPECT_NE(err->find("line 2"), std::string::npos) << *err;
    EXPECT_TRUE(kept == changed) << bad;  // not even the good first line
  }
}

uint64_t nodes_to_depth(const SearchParams& params, int depth) {
  TranspositionTable tt;
  EXPECT_TRUE(tt.resize(16));
  Options options;
  options.params = params;
  Searcher searcher(tt, options);
  core::Game game;
  EXPECT_FALSE(game.set_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"));
  std::atomic<bool> stop{false};
  Limits limits;
  limits.depth = depth;
  return searcher.run(game.position(), limits, stop, nullptr).nodes;
}

// Every parameter reaches the search: moved to one end of its range or the other, the tree to
// depth 11 changes (or to depth 14, for the history bonus's cap, which only deep nodes reach).
TEST(SearchParams, EveryParameterChangesTheSearch) {
  const uint64_t base = nodes_to_depth(SearchParams(), 11);
  EXPECT_EQ(nodes_to_depth(SearchParams(), 11), base);  // repeatable
  for (const TunableParam& p : tunable_params()) {
    SearchParams low, high;
    low.*p.field = p.min;
    high.*p.field = p.max;
    const bool changed = nodes_to_depth(low, 11) != base || nodes_to_depth(high, 11) != base ||
                         nodes_to_depth(low, 14) != nodes_to_depth(SearchParams(), 14);
    EXPECT_TRUE(changed) << p.name;
  }
}

}  // namespace
}  // namespace vblitz::search
