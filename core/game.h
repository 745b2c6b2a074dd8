// A game: the current position plus the chain of states behind it, so repetitions across the
// moves already played are visible to the search.
#pragma once

#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/position.h"

namespace vblitz::core {

class Game {
 public:
  Game() { set_fen(Position::kStartFen); }
  // Moving keeps the states where they are (a deque hands over its blocks); copying would not.
  Game(Game&&) = default;
  Game& operator=(Game&&) = default;
  Game(const Game&) = delete;
  Game& operator=(const Game&) = delete;

  // Starts from a FEN; on error returns the reason and keeps the game as it was.
  std::optional<std::string> set_fen(std::string_view fen, bool chess960 = false);
  // Plays each move (UCI notation) in turn. On the first illegal move returns the reason and
  // keeps the game as it was before the call.
  std::optional<std::string> play(const std::vector<std::string>& uci_moves);

  const Position& position() const { return pos_; }
  Position& position() { return pos_; }

 private:
  Position pos_;
  std::deque<StateInfo> states_;  // a deque keeps the addresses the position links to stable
};

}  // namespace vblitz::core
