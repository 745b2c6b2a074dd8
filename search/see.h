// Static exchange evaluation: the material outcome of the capture sequence on one square.
#pragma once

#include "core/position.h"

namespace vblitz::search {

// True if playing m and then the best exchange sequence on its square gains at least
// `threshold` centipawns for the side to move. Castling and en passant count as 0.
bool see_ge(const core::Position& pos, core::Move m, int threshold);

// The material the side to move gains by playing m and then the best exchange on its square
// (negative when m leaves its piece where it is lost); castling and en passant count as 0.
int see_value(const core::Position& pos, core::Move m);

}  // namespace vblitz::search
