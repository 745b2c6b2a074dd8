// Dispatch of the child-counting kernel.
#include "simd/child_count.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/child_count.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "simd/child_count-inl.h"
#include "simd/dispatch_table.h"

#if HWY_ONCE
namespace vblitz::simd {

HWY_EXPORT(CountChildMoves);

void count_child_moves_vector(const core::ChildBatch& batch, uint64_t* counts) {
  VBLITZ_DISPATCH(CountChildMoves)(batch, counts);
}

CountChildMovesFn count_child_moves_vector_pointer(size_t index) {
  return HWY_DISPATCH_TABLE(CountChildMoves)[index];
}

}  // namespace vblitz::simd
#endif  // HWY_ONCE
