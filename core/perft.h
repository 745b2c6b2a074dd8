// Perft: counts the leaf nodes of the legal move tree, the standard move-generator check.
#pragma once

#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/position.h"

namespace vblitz::core {

// Number of leaf nodes `depth` plies below pos (1 at depth 0). The last ply is counted, not
// generated (count_legal).
uint64_t perft(Position& pos, int depth);

// The leaf count below each legal root move, in generation order; depth must be >= 1. With
// `stop`, the count ends soon after *stop becomes true and returns the moves finished by then.
// With `threads` > 1 and depth >= 3 the positions two plies down are counted on that many
// OpenMP threads, each taking the next unfinished one; the counts are exact for any number.
std::vector<std::pair<Move, uint64_t>> perft_divide(Position& pos, int depth,
                                                    const std::atomic<bool>* stop = nullptr, int threads = 1);

}  // namespace vblitz::core
