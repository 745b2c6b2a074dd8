// Draw helpers: repetition inside and before the search tree, the fifty-move rule (mate takes
// precedence) and insufficient material.
#include <gtest/gtest.h>

#include "core/game.h"
#include "core/movegen.h"

namespace vblitz::test {
namespace {

using namespace core;

TEST(Draw, RepetitionInsideTheTreeIsTwofoldBeforeItThreefold) {
  Game game;
  ASSERT_FALSE(game.play({"g1f3", "g8f6", "f3g1", "f6g8"}));
  const Position& pos = game.position();
  // The start position occurred 4 plies ago: a draw if that was inside the search tree...
  EXPECT_TRUE(pos.is_draw(5));
  // ...but not if it was before the root (only a twofold repetition in the game).
  EXPECT_FALSE(pos.is_draw(1));
  ASSERT_FALSE(game.play({"g1f3", "g8f6", "f3g1", "f6g8"}));
  EXPECT_TRUE(game.position().is_draw(1));  // threefold
}

TEST(Draw, FiftyMoveRuleButMateComesFirst) {
  Game game;
  ASSERT_FALSE(game.set_fen("4k3/8/8/8/8/8/8/R3K3 w - - 99 80"));
  EXPECT_FALSE(game.position().is_draw(0));
  ASSERT_FALSE(game.play({"a1a2"}));
  EXPECT_TRUE(game.position().is_draw(1));
  // Checkmate delivered on the hundredth half-move is still mate.
  ASSERT_FALSE(game.set_fen("7k/8/6K1/8/8/8/8/5Q2 w - - 99 80"));
  ASSERT_FALSE(game.play({"f1f8"}));
  EXPECT_EQ(MoveList<LEGAL>(game.position()).size(), 0u);
  EXPECT_FALSE(game.position().is_draw(1));
}

TEST(Draw, InsufficientMaterial) {
  struct Case {
    const char* fen;
    bool dead;
  } cases[] = {
      {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", true},      {"4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true},
      {"4k3/8/8/8/8/8/8/4KB2 w - - 0 1", true},     {"4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true},
      {"4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1", false}, {"4kn2/8/8/8/8/8/8/4KN2 w - - 0 1", false},
      {"4k3/8/8/8/8/8/8/4KNN1 w - - 0 1", false},   {"4k3/8/8/8/8/8/P7/4K3 w - - 0 1", false},
      {"4k3/8/8/8/8/8/8/4K2R w - - 0 1", false},
  };
  for (const Case& c : cases) {
    Game game;
    ASSERT_FALSE(game.set_fen(c.fen));
    EXPECT_EQ(game.position().has_insufficient_material(), c.dead) << c.fen;
  }
}

TEST(Draw, IllegalMoveInAListLeavesTheGameUnchanged) {
  Game game;
  ASSERT_FALSE(game.play({"e2e4"}));
  std::string before = game.position().fen();
  auto err = game.play({"e7e5", "g1f3", "e1e3"});
  ASSERT_TRUE(err.has_value());
  EXPECT_NE(err->find("illegal move 'e1e3' (move 3"), std::string::npos) << *err;
  EXPECT_EQ(game.position().fen(), before);
  EXPECT_EQ(game.position().consistency_error(), "");
}

}  // namespace
}  // namespace vblitz::test
