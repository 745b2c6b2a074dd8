// Static evaluation: Cray Blitz's knowledge piece by piece (eval/params.h lists every term),
// tapered between middlegame and endgame by the material on the board. Pawn structure and king
// shelter come from hash tables owned by the evaluator; attack maps and mobility counts run on
// the SIMD kernels (whole-side slider fills, masked population counts, table sums).
#pragma once

#include "core/position.h"
#include "eval/king_safety.h"
#include "eval/network.h"
#include "eval/params.h"
#include "eval/pawns.h"
#include "eval/trace.h"

namespace vblitz::eval {

// Material in centipawns of one piece type (king 0), as SEE and move ordering use it.
int piece_value(core::PieceType pt);

// The network's score `score` (side to move's view) with the endings that self-play scores do
// not teach it: king and pawn against king from the bitbase (a draw is 0), the drawish endings
// the classic evaluation scales down (opposite-coloured bishops, a rook pawn with the wrong
// bishop), the side the score favours without pawns and at most a minor piece ahead (KRvKB: a
// sixteenth of the score; KRBvKR: a quarter; KBvKN: 0; not a queen against minor pieces alone)
// and two knights against a bare king (0). Any position with four or more minor and major
// pieces keeps its score.
int network_endgame_score(const core::Position& pos, int score);

// A cached static evaluation (White's point of view) of the position with that full key.
struct EvalEntry {
  core::Key key = 0;
  int white = 0;
};
using EvalCache = EvalHashTable<EvalEntry>;

class Evaluator {
 public:
  // Evaluates with `params`, which must outlive the evaluator (an engine's, set with ParamFile
  // and the style options between searches: search::Options::eval_params).
  explicit Evaluator(const Params& params = default_params()) : params_(params) {}

  // Score in centipawns from the side to move's point of view.
  int evaluate(const core::Position& pos);
  // Score from White's point of view; with a trace, every term is recorded (hashes bypassed).
  int evaluate_white(const core::Position& pos, Trace* trace = nullptr);
  // Starts loading the cached evaluation of the position with this key (the search calls it
  // with a child's key before making the move).
  void prefetch(core::Key key) const { cache_.prefetch(key); }
  // The game phase: 24 with every piece on the board, 0 with kings and pawns only.
  static int phase(const core::Position& pos);

  void clear() {
    pawns_.clear();
    kings_.clear();
    cache_.clear();
  }
  const PawnTable& pawn_table() const { return pawns_; }
  const KingTable& king_table() const { return kings_; }

 private:
  const Params& params_;
  PawnTable pawns_;
  KingTable kings_;
  EvalCache cache_{1 << 14};  // re-searches and transpositions evaluate the same positions again
};

// Writes the `eval` report: each classic term for White, Black and the total, the classic and
// the network evaluation, then "Final evaluation: <cp> (white side)" in the active mode's; the
// classic terms with `params`, the network's with `network`.
std::string eval_report(const core::Position& pos, bool network_active, const Params& params,
                        const Network& network);

}  // namespace vblitz::eval
