// Dispatch of the network kernels.
#include "simd/network_kernels.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/network_kernels.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "simd/dispatch_table.h"
#include "simd/network_kernels-inl.h"

#if HWY_ONCE
namespace vblitz::simd {

HWY_EXPORT(Accumulate);
HWY_EXPORT(ScreluDot);

void accumulate_vector(int16_t* out, const int16_t* base, const int16_t* const* add, size_t add_count,
                       const int16_t* const* sub, size_t sub_count, size_t width) {
  VBLITZ_DISPATCH(Accumulate)(out, base, add, add_count, sub, sub_count, width);
}

int32_t screlu_dot_vector(const int16_t* acc, const int16_t* weights, size_t width, int16_t clip) {
  return VBLITZ_DISPATCH(ScreluDot)(acc, weights, width, clip);
}

}  // namespace vblitz::simd
#endif  // HWY_ONCE
