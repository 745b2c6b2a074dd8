// SEE by the swap algorithm, with x-ray attackers revealed as pieces leave the square.
#include "search/see.h"

#include "eval/evaluate.h"

namespace vblitz::search {

using namespace core;

bool see_ge(const Position& pos, Move m, int threshold) {
  if (m.kind() == Move::CASTLING || m.kind() == Move::EN_PASSANT) return 0 >= threshold;
  const Square from = m.from(), to = m.to();
  int swap = eval::piece_value(type_of(pos.piece_on(to))) - threshold;
  if (m.kind() == Move::PROMOTION) swap += eval::piece_value(m.promotion_type()) - eval::piece_value(PAWN);
  if (swap < 0) return false;
  PieceType on_square = m.kind() == Move::PROMOTION ? m.promotion_type() : type_of(pos.piece_on(from));
  swap = eval::piece_value(on_square) - swap;
  if (swap <= 0) return true;

  Bitboard occupied = pos.pieces() ^ square_bb(from) ^ square_bb(to);
  Color stm = pos.side_to_move();
  Bitboard attackers = pos.attackers_to(to, occupied);
  const Bitboard diagonal = pos.pieces(BISHOP, QUEEN), straight = pos.pieces(ROOK, QUEEN);
  int result = 1;
  while (true) {
    stm = ~stm;
    attackers &= occupied;
    Bitboard mine = attackers & pos.pieces(stm);
    if (!mine) break;
    result ^= 1;
    // The least valuable attacker recaptures.
    PieceType pt = PAWN;
    while (!(mine & pos.pieces(pt))) pt = PieceType(pt + 1);
    if (pt == KING) return (attackers & pos.pieces(~stm)) ? result ^ 1 : result;
    swap = eval::piece_value(pt) - swap;
    if (swap < result) break;
    occupied ^= square_bb(lsb(mine & pos.pieces(pt)));
    if (pt == PAWN || pt == BISHOP || pt == QUEEN) attackers |= bishop_attacks(to, occupied) & diagonal;
    if (pt == ROOK || pt == QUEEN) attackers |= rook_attacks(to, occupied) & straight;
  }
  return bool(result);
}

int see_value(const Position& pos, Move m) {
  // No exchange gains or loses more than two queens: search between, keeping see_ge(low).
  int low = -2 * eval::piece_value(QUEEN), high = 2 * eval::piece_value(QUEEN) + 1;
  while (high - low > 1) {
    const int mid = low + (high - low) / 2;
    (see_ge(pos, m, mid) ? low : high) = mid;
  }
  return low;
}

}  // namespace vblitz::search
