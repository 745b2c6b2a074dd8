// Perft: counts the leaf nodes of the legal move tree, the standard move-generator check.
#pragma once

#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/position.h"

namespace vblitz::core {

// Number of leaf nodes `depth` plies below pos (1 at depth 0). Counts the last ply in bulk.
uint64_t perft(Position& pos, int depth);

// The leaf count below each legal root move, in generation order; depth must be >= 1. With
// `stop`, the count ends soon after *stop becomes true and returns the moves finished by then.
std::vector<std::pair<Move, uint64_t>> perft_divide(Position& pos, int depth,
                                                    const std::atomic<bool>* stop = nullptr);

}  // namespace vblitz::core
