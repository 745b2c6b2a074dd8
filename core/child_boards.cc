// The parent's board for a batch of children, and the children left to the scalar path.
#include "core/child_boards.h"

namespace vblitz::core {

namespace {

// True when castling right cr (if held) is the standard one: king on e1/e8, rook in the corner.
bool standard_right(const Position& pos, CastlingRights cr, Color c, bool king_side) {
  if (!pos.can_castle(cr)) return true;
  return pos.king_square(c) == relative_square(c, SQ_E1) &&
         pos.castling_rook_square(cr) == relative_square(c, king_side ? SQ_H1 : SQ_A1);
}

}  // namespace

bool batchable(const Position& pos) {
  if (pos.is_chess960()) return false;
  for (Color c : {WHITE, BLACK})
    for (bool king_side : {true, false})
      if (!standard_right(pos, castling_right(c, king_side), c, king_side)) return false;
  return true;
}

void start_batch(const Position& pos, ChildBatch& batch) {
  const Color parent_side = pos.side_to_move(), child_side = ~parent_side;
  const bool mirror = child_side == BLACK;
  const auto seen = [mirror](Bitboard b) { return mirror ? __builtin_bswap64(b) : b; };
  Bitboard castling = 0;
  for (bool king_side : {true, false})
    if (pos.can_castle(castling_right(child_side, king_side)))
      castling |= square_bb(pos.castling_rook_square(castling_right(child_side, king_side)));
  batch.parent = {seen(pos.pieces(child_side)),    seen(pos.pieces(parent_side)),
                  seen(pos.pieces(PAWN)),          seen(pos.pieces(KNIGHT)),
                  seen(pos.pieces(BISHOP, QUEEN)), seen(pos.pieces(ROOK, QUEEN)),
                  seen(pos.pieces(KING)),          seen(castling)};
  batch.mirror = mirror ? uint16_t(56 << 6 | 56) : 0;
  batch.size = 0;
}

bool gives_en_passant_square(const Position& pos, Move m) {
  const Color us = pos.side_to_move();
  return (int(m.from()) ^ int(m.to())) == 16 && type_of(pos.piece_on(m.from())) == PAWN &&
         (pawn_attacks(us, m.to() - pawn_push(us)) & pos.pieces(~us, PAWN));
}

void pad(ChildBatch& batch) {
  for (size_t i = batch.size; i % kChildLanePad; ++i) batch.moves[i] = 0;
}

}  // namespace vblitz::core
