// Dispatch of the move-ordering kernel.
#include "simd/quiet_sort.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/quiet_sort.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "simd/dispatch_table.h"
#include "simd/quiet_sort-inl.h"

#if HWY_ONCE
namespace vblitz::simd {

HWY_EXPORT(SortByScore);

void sort_by_score_vector(core::Move* moves, int32_t* scores, size_t count) {
  VBLITZ_DISPATCH(SortByScore)(moves, scores, count);
}

}  // namespace vblitz::simd
#endif  // HWY_ONCE
