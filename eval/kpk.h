// King and pawn against king, solved exactly: a bitbase computed at start-up by retrograde
// iteration (Cray Blitz evaluated these endings "with no tree search whatever").
#pragma once

#include "core/types.h"

namespace vblitz::eval {

// True if the side with the pawn wins, with `strong_to_move` telling who moves. Squares are
// from the strong side's point of view (its pawn moves up the board).
bool kpk_win(core::Square strong_king, core::Square strong_pawn, core::Square weak_king, bool strong_to_move);

}  // namespace vblitz::eval
