// Game: position plus history.
#include "core/game.h"

#include "core/text.h"

namespace vblitz::core {

std::optional<std::string> Game::set_fen(std::string_view fen, bool chess960) {
  Position candidate;
  StateInfo root;
  if (auto err = candidate.set(fen, root, chess960)) return err;
  states_.clear();
  states_.push_back(StateInfo());
  pos_.set(fen, states_.back(), chess960);
  return std::nullopt;
}

std::optional<std::string> Game::play(const std::vector<std::string>& uci_moves) {
  std::vector<Move> played;
  for (const std::string& text : uci_moves) {
    Move m = pos_.parse_uci(text);
    if (m == Move::none()) {
      for (auto it = played.rbegin(); it != played.rend(); ++it) {
        pos_.undo_move(*it);
        states_.pop_back();
      }
      return "illegal move " + quote(text) + " (move " + std::to_string(played.size() + 1) + " of the list)";
    }
    states_.emplace_back();
    pos_.do_move(m, states_.back());
    played.push_back(m);
  }
  return std::nullopt;
}

}  // namespace vblitz::core
