// Child-counting kernel for perft two plies above the leaves: the number of legal moves of every
// child in a batch (core/child_boards.h), one child per lane (the Cray way: vectorize across
// positions, not within one). Each lane makes its child's board from the parent's sets and its
// move (core::child_board), then counts set-wise: the enemy's attacks (our
// king lifted), checkers and the check-evasion mask, pins (rays from our king, x-rayed through
// the first own piece), then our pawns, knights, sliders (direction by direction, a pinned piece
// only along its pin), king and castling. Every shift is a compile-time constant, the same in all
// lanes. The scalar twin makes the same boards with core::child_board and counts them child by
// child with core's table lookups.
#pragma once

#include <cstdint>

#include "core/child_boards.h"
#include "simd/dispatch.h"

namespace vblitz::simd {

// Writes the number of legal moves of child i to counts[i] for every child of `batch`; counts
// needs room for batch.size rounded up to core::kChildLanePad, and the batch must be padded
// (core::pad).
void count_child_moves_scalar(const core::ChildBatch& batch, uint64_t* counts);
void count_child_moves_vector(const core::ChildBatch& batch, uint64_t* counts);

inline void count_child_moves(const core::ChildBatch& batch, uint64_t* counts) {
  if (use_vector(Kernel::kChildCount))
    count_child_moves_vector(batch, counts);
  else
    count_child_moves_scalar(batch, counts);
}

// The vector kernel of the target at dispatch-table index `index` (Dispatch::index()) as a
// plain function pointer (no dispatch per call), for core::MoveKernels.
using CountChildMovesFn = void (*)(const core::ChildBatch&, uint64_t*);
CountChildMovesFn count_child_moves_vector_pointer(size_t index);

}  // namespace vblitz::simd
