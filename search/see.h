// Static exchange evaluation: the material outcome of the capture sequence on one square.
#pragma once

#include "core/position.h"

namespace vblitz::search {

// True if playing m and then the best exchange sequence on its square gains at least
// `threshold` centipawns for the side to move. Castling and en passant count as 0.
bool see_ge(const core::Position& pos, core::Move m, int threshold);

}  // namespace vblitz::search
