// Dispatch of the slider kernels.
#include "simd/slider_attacks.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/slider_attacks.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "simd/dispatch_table.h"
#include "simd/slider_attacks-inl.h"

#if HWY_ONCE
namespace vblitz::simd {

HWY_EXPORT(SliderAttacksOf);
HWY_EXPORT(SideSliderAttacks);

SliderAttacks slider_attacks_vector(int square, uint64_t occupied) {
  return VBLITZ_DISPATCH(SliderAttacksOf)(square, occupied);
}

uint64_t side_slider_attacks_vector(uint64_t orthogonal, uint64_t diagonal, uint64_t occupied) {
  return VBLITZ_DISPATCH(SideSliderAttacks)(orthogonal, diagonal, occupied);
}

}  // namespace vblitz::simd
#endif  // HWY_ONCE
