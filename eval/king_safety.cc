// King shelter and centralization.
#include "eval/king_safety.h"

#include <algorithm>

namespace vblitz::eval {

using namespace core;

namespace {

void score_king(const Position& pos, const Params& p, Color us, KingEntry& e, Trace* trace) {
  const Color them = ~us;
  const Square ksq = pos.king_square(us);
  const int king_rank = relative_rank(us, ksq), king_file = file_of(ksq);
  const Bitboard ours = pos.pieces(us, PAWN), theirs = pos.pieces(them, PAWN);
  Score& shelter = e.shelter[us];

  record(trace, Term::king_file_preference, us, p.king_file_preference[king_file], shelter);
  record(trace, Term::king_rank, us, p.king_rank[0] * king_rank, shelter);
  record(trace, Term::king_center, us, p.king_center[0] * center_distance(ksq), e.center[us]);
  if (king_rank > RANK_2) return;  // a king that left its corner has no shield to judge

  // The zone: the king's file and its neighbours, always three files (Cray Blitz).
  const int first = std::clamp(king_file - 1, 0, 5);
  for (int f = first; f < first + 3; ++f) {
    const Bitboard file = file_bb(File(f));
    // Pawns in front of the king on this file.
    Bitboard front = 0;
    for (int r = king_rank + 1; r < 8; ++r)
      front |= square_bb(relative_square(us, make_square(File(f), Rank(r))));
    front &= file;
    const bool own = ours & front, enemy = theirs & front;
    if (!own)
      record(trace, Term::king_file, us, p.king_file[enemy ? 1 : 0], shelter);
    else if (!enemy)
      record(trace, Term::king_file, us, p.king_file[2], shelter);

    // Holes: squares two ranks in front of the king that no own pawn can guard any more
    // (Cray Blitz: pawns on e3, f2, g3, h2 leave holes on f3 and h3 for a king on g1).
    for (int r = king_rank + 2; r <= king_rank + 2; ++r) {
      const Square s = relative_square(us, make_square(File(f), Rank(r)));
      if (ours & square_bb(s)) continue;
      Bitboard guards = 0;  // own pawns on adjacent files below s could still reach a guarding square
      for (int below = RANK_2; below < r; ++below)
        for (int df : {-1, 1})
          if (f + df >= 0 && f + df < 8)
            guards |= square_bb(relative_square(us, make_square(File(f + df), Rank(below))));
      if (!(ours & guards)) record(trace, Term::king_shield_hole, us, p.king_shield_hole[0], shelter);
    }
  }
}

}  // namespace

void compute_king_safety(const Position& pos, const Params& params, KingEntry& entry, Trace* trace) {
  entry.key = pos.pawn_king_key();
  for (Color c : {WHITE, BLACK}) entry.shelter[c] = entry.center[c] = Score();
  for (Color c : {WHITE, BLACK}) score_king(pos, params, c, entry, trace);
}

}  // namespace vblitz::eval
