// Pawn races in pure pawn endings, decided without search as Cray Blitz did: the square of the
// king, who queens first, and whether the first queen stops the second (a queening check, or
// control of the other queening square). Any doubt decides nothing.
#pragma once

#include <optional>

#include "core/position.h"

namespace vblitz::eval {

// With kings and pawns only: the side that wins the race for certain, given each side's passed
// pawns; nullopt if neither does or the position is not a pure pawn ending.
std::optional<core::Color> pawn_race_winner(const core::Position& pos,
                                            const core::Bitboard passed[core::COLOR_NB]);

}  // namespace vblitz::eval
