// Playing strength for people: `UCI_LimitStrength` and `UCI_Elo`. A limited search gets a node
// budget per move that grows with the Elo asked for, and each root move a random bonus that
// shrinks with it, so a weaker setting both sees less and sometimes prefers a worse move (as a
// weaker player does). The budget counts the nodes of every thread, so the strength does not
// grow with Threads, the clock or the machine's speed. The Elo scale is Stockfish 15.1's
// (its own UCI_Elo, anchored to CCRL 40/4): the budgets come from matches against Stockfish
// 15.1 at the same UCI_Elo (docs/strength.md has the table and the commands).
#pragma once

#include <cstdint>
#include <random>

#include "core/position.h"
#include "search/limits.h"

namespace vblitz::search {

constexpr int kMinElo = 1350;
constexpr int kMaxElo = 2850;

struct StrengthLimit {
  uint64_t nodes = 0;  // the node budget of a move
  int noise = 0;       // each root move's bonus is drawn from 0 .. noise centipawns
};

// The budget and noise for `elo` (clamped to kMinElo..kMaxElo): the node budget interpolated
// geometrically between calibrated points, the noise linearly.
StrengthLimit strength_for_elo(int elo);

// Limits a search from `pos` to the strength of `elo`: a node budget (a smaller one given by
// `go nodes` stays) and a random bonus on every legal root move, added to any bonus already
// there (the extended book's). Clock limits stay: the search stops at whichever comes first.
void limit_strength(Limits& limits, const core::Position& pos, int elo, std::mt19937_64& rng);

}  // namespace vblitz::search
