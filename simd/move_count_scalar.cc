// Scalar twin of the move-counting kernel: core's per-piece lookups.
#include "core/movegen.h"
#include "simd/move_count.h"

namespace vblitz::simd {

int count_piece_moves_scalar(uint64_t orthogonal, uint64_t diagonal, uint64_t knights, uint64_t occupied,
                             uint64_t target) {
  return core::count_piece_moves(orthogonal, diagonal, knights, occupied, target);
}

}  // namespace vblitz::simd
