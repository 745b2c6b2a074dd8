// Pawn races in pure pawn endings, decided without search as Cray Blitz did: the square of the
// king, who queens first, and whether the first queen stops the others (two moves to spare, or
// control of their queening square out of their king's reach). Any doubt decides nothing: a
// side in check, a capture on the board, a race one move apart without that control.
#pragma once

#include <optional>

#include "core/position.h"

namespace vblitz::eval {

// With kings and pawns only: the side that wins the race for certain, given each side's passed
// pawns; nullopt if neither does or the position is not a pure pawn ending.
std::optional<core::Color> pawn_race_winner(const core::Position& pos,
                                            const core::Bitboard passed[core::COLOR_NB]);

}  // namespace vblitz::eval
