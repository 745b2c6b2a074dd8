// One game between two engines (UCI or xboard): the rules (legal moves only, mate, stalemate, threefold
// repetition, the fifty-move rule, insufficient material), the clock, and adjudication.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/types.h"
#include "match/engine.h"

namespace vblitz::match {

// A side's limit on each move: a clock (base and increment), a node count, a depth, or a
// combination (`tc=inf nodes=10000`: nodes only).
struct Limit {
  bool clock = false;
  int64_t base_ms = 0, increment_ms = 0;
  uint64_t nodes = 0;
  int depth = 0;
  int64_t margin_ms = 0;  // an answer this much past the clock still counts (timemargin=)
};

// Ending a game early on the engines' scores, as match runners do (`-draw`, `-resign`).
struct Adjudication {
  bool draw = false;
  int draw_move_number = 0;  // from this full move on
  int draw_move_count = 0;   // for this many moves of each side
  int draw_score = 0;        // both sides' scores within +-score centipawns
  bool resign = false;
  int resign_move_count = 0;      // for this many moves
  int resign_score = 0;           // the losing side's score at most -score
  bool resign_two_sided = false;  // and the winning side's at least +score
};

struct GameResult {
  std::string result = "*";  // "1-0", "0-1", "1/2-1/2"
  std::string termination;   // "White mates", "Black loses on time", "threefold repetition", ...
  // The PGN Termination tag's value: "normal" (on the board), "adjudication", "time forfeit",
  // "illegal move", "abandoned" (the engine exited), "stalled connection" (it stopped
  // answering) or "unterminated" -- the values fastchess writes, which perf/soak_summary.py reads.
  std::string pgn_termination = "unterminated";
  std::vector<core::Move> moves;
  // Per move, what fastchess writes in the PGN: "+0.35/18 0.421s" (the mover's score in pawns,
  // `M5` or `-M3` for a mate, its depth, the time it took); "" when the engine gave no score.
  std::vector<std::string> comments;
  bool engine_failed[2] = {false, false};  // white, black: crashed, hung or played illegally
  int ponder_hits = 0, ponder_misses = 0;  // replies a pondering side expected, or did not
};

// Plays the game from `fen` with `white` and `black` (started, after ucinewgame). `limits` are
// white's and black's; a side that answers past its clock (and margin), answers nothing within
// its clock plus `hang_ms`, or plays an illegal move loses. An engine set to ponder thinks on the
// reply it named while the other side moves (`go ponder`); if the reply comes it gets
// `ponderhit` and its clock runs from then, otherwise `stop` and a normal `go` (its clock stands
// meanwhile). A side that does not answer the `stop` within `hang_ms` loses (stalled); one
// still pondering when the game ends is stopped before it returns.
GameResult play_game(Engine& white, Engine& black, const Limit limits[2], const std::string& fen,
                     const Adjudication& adjudication, int64_t hang_ms);

}  // namespace vblitz::match
