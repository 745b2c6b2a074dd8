// Perft: counts the leaf nodes of the legal move tree, the standard move-generator check.
#pragma once

#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/child_boards.h"
#include "core/position.h"

namespace vblitz::core {

// Sets the child counter of the process's kernels (core/movegen.h: MoveKernels); the SIMD
// layer installs its kernel or the kernel's scalar twin. Set it only while no perft runs.
void set_child_counter(ChildCounter counter);

// Number of leaf nodes `depth` plies below pos (1 at depth 0). The last ply is counted, not
// generated (count_legal); two plies above the leaves, with a child counter installed, the
// children are counted in one batch (those with an en passant square, and Chess960, as before).
uint64_t perft(Position& pos, int depth);

// One of `parts` disjoint shares of a perft (one per process of a cluster run): the counts of
// every part, added move by move, are the whole perft.
struct PerftShare {
  int part = 0;
  int parts = 1;
};

// The leaf count below each legal root move, in generation order; depth must be >= 1. With
// `stop`, the count ends soon after *stop becomes true and returns the moves finished by then.
// With `threads` > 1 and depth >= 3 the positions two plies down are counted on that many
// OpenMP threads, each taking the next unfinished one; the counts are exact for any number.
// With a share, only every parts-th of those positions (from the part-th) is counted (below
// depth 3, part 0 counts everything and the others nothing).
std::vector<std::pair<Move, uint64_t>> perft_divide(Position& pos, int depth,
                                                    const std::atomic<bool>* stop = nullptr, int threads = 1,
                                                    PerftShare share = {});

}  // namespace vblitz::core
