// UCI_Elo: budgets and noise that rise and fall with the Elo, limits applied to a search, and
// weaker settings choosing the full-strength move less often.
#include "search/strength.h"

#include <gtest/gtest.h>

#include <atomic>

#include "core/game.h"
#include "core/movegen.h"
#include "search/search.h"
#include "uci/bench_positions.h"

namespace vblitz::search {
namespace {

TEST(Strength, BudgetRisesAndNoiseFallsWithTheElo) {
  StrengthLimit last = strength_for_elo(kMinElo);
  EXPECT_GT(last.nodes, 0u);
  EXPECT_GT(last.noise, 0);
  for (int elo = kMinElo + 10; elo <= kMaxElo; elo += 10) {
    const StrengthLimit s = strength_for_elo(elo);
    EXPECT_GE(s.nodes, last.nodes) << elo;
    EXPECT_LE(s.noise, last.noise) << elo;
    last = s;
  }
  EXPECT_EQ(strength_for_elo(kMaxElo).noise, 0);
  EXPECT_GT(strength_for_elo(kMaxElo).nodes, 100 * strength_for_elo(kMinElo).nodes);
  // Outside the range: the range's ends.
  EXPECT_EQ(strength_for_elo(0).nodes, strength_for_elo(kMinElo).nodes);
  EXPECT_EQ(strength_for_elo(5000).nodes, strength_for_elo(kMaxElo).nodes);
}

TEST(Strength, LimitsKeepASmallerNodeLimitAndBonusEveryLegalMove) {
  core::Game game;
  ASSERT_FALSE(game.set_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"));
  const core::Position& pos = game.position();
  const core::MoveList<core::LEGAL> legal(pos);
  std::mt19937_64 rng(7);
  const StrengthLimit s = strength_for_elo(1500);

  Limits limits;
  limit_strength(limits, pos, 1500, rng);
  EXPECT_EQ(limits.nodes, s.nodes);
  ASSERT_EQ(limits.root_bonus.size(), legal.size());
  int positive = 0;
  for (const auto& [move, bonus] : limits.root_bonus) {
    EXPECT_TRUE(pos.is_legal(move));
    EXPECT_GE(bonus, 0);
    EXPECT_LE(bonus, s.noise);
    positive += bonus > 0;
  }
  EXPECT_GT(positive, int(legal.size()) / 2);

  Limits small;
  small.nodes = 5;
  small.root_bonus.emplace_back(*legal.begin(), 1000);  // an extended-book bonus stays, plus noise
  limit_strength(small, pos, 1500, rng);
  EXPECT_EQ(small.nodes, 5u);
  ASSERT_EQ(small.root_bonus.size(), legal.size());
  EXPECT_GE(small.root_bonus.front().second, 1000);

  Limits strongest;
  limit_strength(strongest, pos, kMaxElo, rng);
  EXPECT_EQ(strongest.nodes, strength_for_elo(kMaxElo).nodes);
  EXPECT_TRUE(strongest.root_bonus.empty());
}

// Over the bench positions, the weakest setting plays the move of a deep full-strength search
// less often than a club player's (2000), and no limited search exceeds its budget.
TEST(Strength, WeakerSettingsAgreeLessWithAFullSearch) {
  TranspositionTable tt;
  ASSERT_TRUE(tt.resize(16));
  Options options;
  Searcher searcher(tt, options);
  std::atomic<bool> stop{false};
  std::mt19937_64 rng(11);
  int agree_weak = 0, agree_strong = 0, positions = 0;
  for (const char* fen : uci::kBenchPositions) {
    core::Game game;
    ASSERT_FALSE(game.set_fen(fen));
    if (core::MoveList<core::LEGAL>(game.position()).size() < 2) continue;
    Limits deep;
    deep.depth = 10;
    tt.clear();
    searcher.clear();
    const core::Move best = searcher.run(game.position(), deep, stop, nullptr).best;
    for (int elo : {kMinElo, 2000}) {
      Limits limits;
      limit_strength(limits, game.position(), elo, rng);
      tt.clear();
      searcher.clear();
      const Result r = searcher.run(game.position(), limits, stop, nullptr);
      EXPECT_LE(r.nodes, limits.nodes) << fen << " at " << elo;
      (elo == kMinElo ? agree_weak : agree_strong) += r.best == best;
    }
    ++positions;
  }
  EXPECT_GT(positions, 30);
  EXPECT_GT(agree_strong, agree_weak + positions / 5)
      << agree_strong << " vs " << agree_weak << " of " << positions;
}

}  // namespace
}  // namespace vblitz::search
