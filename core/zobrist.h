// Zobrist hashing keys. The position keeps four keys incrementally: the full key, the pawn key
// (pawn hash), the pawn+king key (king-safety hash) and the material key (piece counts).
#pragma once

#include <cstdint>

#include "core/types.h"

namespace vblitz::core {

using Key = uint64_t;

namespace zobrist {
extern Key psq[PIECE_NB][SQUARE_NB];
extern Key en_passant_file[8];
extern Key castling[CASTLING_RIGHT_NB];
extern Key side;      // xored in when Black is to move
extern Key no_pawns;  // the pawn key of a position without pawns, so it is never 0
// Material key: xor of material[piece][k] for k = 0 .. count-1 of each piece.
extern Key material[PIECE_NB][16];
}  // namespace zobrist

}  // namespace vblitz::core
