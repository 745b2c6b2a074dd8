// Dispatch of the killer-list kernel.
#include "simd/killer_match.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/killer_match.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "simd/dispatch_table.h"
#include "simd/killer_match-inl.h"

#if HWY_ONCE
namespace vblitz::simd {

HWY_EXPORT(FindMove);

int find_move_vector(const uint16_t* list, size_t count, uint16_t move) {
  return VBLITZ_DISPATCH(FindMove)(list, count, move);
}

}  // namespace vblitz::simd
#endif  // HWY_ONCE
