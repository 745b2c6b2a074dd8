// Dispatch of the move-counting kernel.
#include "simd/move_count.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/move_count.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "simd/dispatch_table.h"
#include "simd/move_count-inl.h"

#if HWY_ONCE
namespace vblitz::simd {

HWY_EXPORT(CountPieceMoves);

int count_piece_moves_vector(uint64_t orthogonal, uint64_t diagonal, uint64_t knights, uint64_t occupied,
                             uint64_t target) {
  return VBLITZ_DISPATCH(CountPieceMoves)(orthogonal, diagonal, knights, occupied, target);
}

CountPieceMovesFn count_piece_moves_vector_pointer(size_t index) {
  return HWY_DISPATCH_TABLE(CountPieceMoves)[index];
}

}  // namespace vblitz::simd
#endif  // HWY_ONCE
