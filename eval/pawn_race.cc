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

// c's fastest pawn with an empty path: among `candidates`, and only those the enemy king cannot
// catch (rule of the square) if `unstoppable`.
Runner fastest(const Position& pos, Color c, Bitboard candidates, bool unstoppable) {
  Runner best;
  const Square their_king = pos.king_square(~c);
  for (Bitboard b = candidates; b;) {
    const Square s = pop_lsb(b);
    if (path(c, s) & pos.pieces()) continue;
    const Square queening = make_square(file_of(s), relative_rank(c, RANK_8));
    const int ply = queening_ply(pos, c, s);
    const int moves = (ply + 1) / 2;
    const int king_steps = distance(their_king, queening) - (pos.side_to_move() == ~c ? 1 : 0);
    if (unstoppable && king_steps <= moves) continue;
    if (ply < best.ply) best = {ply, s, queening};
  }
  return best;
}

}  // namespace

std::optional<Color> pawn_race_winner(const Position& pos, const Bitboard passed[COLOR_NB]) {
  if (pos.pieces() != (pos.pieces(KING) | pos.pieces(PAWN))) return std::nullopt;
  for (Color us : {WHITE, BLACK}) {
    const Color them = ~us;
    const Runner ours = fastest(pos, us, passed[us], true);
    if (ours.ply == INT_MAX) continue;
    // Any of their pawns that could promote close behind ours is a threat, passed or not.
    const Runner theirs = fastest(pos, them, pos.pieces(them, PAWN), false);
    if (theirs.ply >= ours.ply + 3) return us;  // our queen has a move to spare
    if (theirs.ply != ours.ply + 1) continue;   // they queen first: no certainty
    // They promote right after us: our new queen must check their king or cover their square.
    const Bitboard occupied = (pos.pieces() ^ square_bb(ours.from)) | square_bb(ours.queening);
    const Bitboard covered = queen_attacks(ours.queening, occupied);
    if (covered & (pos.pieces(them, KING) | square_bb(theirs.queening))) return us;
  }
  return std::nullopt;
}

}  // namespace vblitz::eval
