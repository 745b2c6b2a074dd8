// A PGN reader for game collections: tag pairs, SAN movetext with move numbers, comments
// ({...} and ;...), recursive variations, NAGs and !/? suffixes, and % escape lines. A game
// with a syntax error or an illegal move is reported with its line and reason and skipped;
// reading goes on with the next game.
#pragma once

#include <functional>
#include <istream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/position.h"

namespace vblitz::book {

struct PgnMove {
  std::string san;
  int line = 0;        // where the move stands in the file
  int annotation = 0;  // !! +2, ! +1, !? and ?! 0, ? -1, ?? -2 (from suffixes or NAGs $1-$6)
  std::vector<std::vector<PgnMove>> variations;  // alternatives to this move
};

struct PgnGame {
  int number = 0;  // 1-based position in the file
  int line = 0;    // first line of the game
  std::vector<std::pair<std::string, std::string>> tags;
  std::vector<PgnMove> moves;  // the main line
  std::string result = "*";    // 1-0, 0-1, 1/2-1/2 or *

  // The value of tag `name`, or "" if absent.
  std::string tag(const std::string& name) const;
};

class PgnReader {
 public:
  explicit PgnReader(std::istream& in) : in_(in) {}

  enum class Status { kGame, kSkipped, kEnd };
  // Reads the next game into `game`. kSkipped: the game was malformed; `reason` says where
  // and why ("game 3 (line 41): ..."), and the next call continues after it.
  Status next(PgnGame& game, std::string& reason);

 private:
  struct Token {
    enum Kind { kTag, kOpen, kClose, kNag, kWord, kError, kEnd } kind = kEnd;
    std::string text, value;  // word, tag name or error message; tag value
    int line = 0;
  };
  Token read_token();
  Token peek_token();
  // Discards the rest of the current game after an error: up to its result, or up to the next
  // tag pair once `past_tags` (the error was in the movetext).
  void skip_game(bool past_tags);
  bool fill_line();  // loads the next input line; false at end of input

  std::istream& in_;
  std::string buffer_;
  size_t pos_ = 0;
  int line_ = 0;
  int games_ = 0;
  std::optional<Token> peeked_;
};

// Walks every move of `game` (main line and variations) from its start position (the FEN tag,
// or the standard start). `visit(pos, move, ply, main_line, annotation)` sees the position
// before each move. Returns the reason if a move is illegal or ambiguous, or the FEN is bad;
// moves before the error have been visited.
using MoveVisitor = std::function<void(const core::Position&, core::Move, int, bool, int)>;
std::optional<std::string> replay(const PgnGame& game, const MoveVisitor& visit);

// A game as PGN text: the tags in the order given (SetUp and FEN added when `start_fen` is not
// the standard start), the moves in SAN on lines of at most 79 characters, each followed by its
// comment in braces when `comments` has a non-empty one at its index, the result, and a blank
// line. The moves must be legal from start_fen; an unreadable start_fen gives "".
std::string write_pgn(const std::vector<std::pair<std::string, std::string>>& tags,
                      const std::string& start_fen, const std::vector<core::Move>& moves,
                      const std::string& result, const std::vector<std::string>& comments = {});

// Points the side to move scored in the game: 2 win, 1 draw, 0 loss; -1 if the result is '*'.
int points_for(const std::string& result, core::Color side);

}  // namespace vblitz::book
