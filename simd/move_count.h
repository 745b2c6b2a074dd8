// Move-counting kernel for perft's last ply: the moves of a side's unpinned knights and sliders
// to a target set, counted without generating them. The vector form works set-wise: the eight
// slider directions are filled from all rooks (and queens) or bishops (and queens) at once, one
// direction per lane (Kogge-Stone, as simd/slider_attacks.h), and the eight knight jumps are
// shifted in lanes; each lane is masked with the target and counted with the vector popcount.
// Rays of one direction never overlap (a ray stops at the first piece, and a piece of the
// mover is not a target), so the sum equals the per-piece count. The scalar twin is core's
// per-piece table lookups (core::count_piece_moves).
#pragma once

#include <cstdint>

#include "simd/dispatch.h"

namespace vblitz::simd {

// Moves of the knights in `knights` and the sliders in `orthogonal` (rooks, queens) and
// `diagonal` (bishops, queens) to squares of `target`; `occupied` blocks the sliders.
int count_piece_moves_scalar(uint64_t orthogonal, uint64_t diagonal, uint64_t knights, uint64_t occupied,
                             uint64_t target);
int count_piece_moves_vector(uint64_t orthogonal, uint64_t diagonal, uint64_t knights, uint64_t occupied,
                             uint64_t target);

inline int count_piece_moves(uint64_t orthogonal, uint64_t diagonal, uint64_t knights, uint64_t occupied,
                             uint64_t target) {
  return use_vector(Kernel::kMoveCount)
             ? count_piece_moves_vector(orthogonal, diagonal, knights, occupied, target)
             : count_piece_moves_scalar(orthogonal, diagonal, knights, occupied, target);
}

// The vector kernel of the target at dispatch-table index `index` (Dispatch::index()) as a
// plain function pointer (no dispatch per call), for core::MoveKernels.
using CountPieceMovesFn = int (*)(uint64_t, uint64_t, uint64_t, uint64_t, uint64_t);
CountPieceMovesFn count_piece_moves_vector_pointer(size_t index);

}  // namespace vblitz::simd
