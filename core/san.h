// Standard Algebraic Notation (SAN), read and written: the notation of PGN games and EPD test suites.
#pragma once

#include <string>
#include <string_view>

#include "core/position.h"

namespace vblitz::core {

// The legal move written as `san` (e.g. "Nf3", "exd5", "e8=Q+", "O-O", "0-0-0", "R1a3",
// "Qh4xe1#"), or Move::none() if it names no legal move or more than one.
Move parse_san(const Position& pos, std::string_view san);

// The legal move m of pos in SAN, with the least disambiguation and a + or # suffix.
std::string to_san(const Position& pos, Move m);

}  // namespace vblitz::core
