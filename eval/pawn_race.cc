// Races of passed pawns to the queening square.
#include "eval/pawn_race.h"

#include <climits>

namespace vblitz::eval {

namespace {

using namespace core;

struct Runner {
  int ply = INT_MAX;  // plies from now until the pawn promotes, counting both sides' moves
  Square from = SQ_NONE, queening = SQ_NONE;
};

// The squares in front of the pawn on s, up to its queening square.
Bitboard path(Color c, Square s) {
  const Bitboard file = file_bb(s);
  return c == WHITE ? file & ~((square_bb(s) << 1) - 1) : file & (square_bb(s) - 1);
}

// Plies until c's pawn on s promotes if it just runs (a double step from its first square).
int queening_ply(const Position& pos, Color c, Square s) {
  const int rank = relative_rank(c, s);
  const int moves = 7 - rank - (rank == RANK_2 ? 1 : 0);
  return 2 * moves - (pos.side_to_move() == c ? 1 : 0);
}

// c's fastest pawn with an empty path among `candidates` that the enemy king cannot catch (rule
// of the square).
Runner fastest_unstoppable(const Position& pos, Color c, Bitboard candidates) {
  Runner best;
  const Square their_king = pos.king_square(~c);
  for (Bitboard b = candidates; b;) {
    const Square s = pop_lsb(b);
    if (path(c, s) & pos.pieces()) continue;
    const Square queening = make_square(file_of(s), relative_rank(c, RANK_8));
    const int ply = queening_ply(pos, c, s);
    const int moves = (ply + 1) / 2;
    const int king_steps = distance(their_king, queening) - (pos.side_to_move() == ~c ? 1 : 0);
    if (king_steps > moves && ply < best.ply) best = {ply, s, queening};
  }
  return best;
}

// True if our queen, arriving first, stops every pawn of `them` for certain: each queens at
// least two of its moves later, or one move later on a square the new queen covers and their
// king cannot defend.
bool stops_them(const Position& pos, Color them, const Runner& ours) {
  const Bitboard occupied = (pos.pieces() ^ square_bb(ours.from)) | square_bb(ours.queening);
  const Bitboard covered = queen_attacks(ours.queening, occupied);
  for (Bitboard b = pos.pieces(them, PAWN); b;) {
    const Square s = pop_lsb(b);
    const int ply = queening_ply(pos, them, s);  // as if its path were clear: it may capture its way
    if (ply >= ours.ply + 5) continue;
    if (ply < ours.ply) return false;  // they queen first
    const Square queening = make_square(file_of(s), relative_rank(them, RANK_8));
    if ((path(them, s) & pos.pieces()) || !(covered & square_bb(queening)) ||
        distance(pos.king_square(them), queening) < 3)
      return false;
  }
  return true;
}

}  // namespace

std::optional<Color> pawn_race_winner(const Position& pos, const Bitboard passed[COLOR_NB]) {
  if (pos.pieces() != (pos.pieces(KING) | pos.pieces(PAWN)) || pos.in_check()) return std::nullopt;
  // A capture on the board changes the race: no verdict.
  for (Color c : {WHITE, BLACK})
    for (Bitboard b = pos.pieces(c, PAWN); b;)
      if (pawn_attacks(c, pop_lsb(b)) & pos.pieces(~c)) return std::nullopt;
  for (Color us : {WHITE, BLACK}) {
    const Runner ours = fastest_unstoppable(pos, us, passed[us]);
    if (ours.ply != INT_MAX && stops_them(pos, ~us, ours)) return us;
  }
  return std::nullopt;
}

}  // namespace vblitz::eval
