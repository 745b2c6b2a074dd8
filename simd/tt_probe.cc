// Dispatch of the probe kernels to the best (or the user-selected) SIMD target.
#include "simd/tt_probe.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/tt_probe.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "simd/dispatch_table.h"
#include "simd/tt_probe-inl.h"

#if HWY_ONCE
namespace vblitz::simd {

HWY_EXPORT(ProbeBucket);
HWY_EXPORT(ProbeCray);

tt::ProbeResult probe_bucket_vector(const uint64_t* bucket, uint16_t key16, uint8_t age,
                                    tt::Bound new_bound) {
  return VBLITZ_DISPATCH(ProbeBucket)(bucket, key16, age, new_bound);
}

tt::ProbeResult probe_cray_vector(const uint64_t* table, uint64_t base, uint64_t stride, uint16_t key16,
                                  uint8_t age, tt::Bound new_bound) {
  return VBLITZ_DISPATCH(ProbeCray)(table, base, stride, key16, age, new_bound);
}

}  // namespace vblitz::simd
#endif  // HWY_ONCE
