// Dispatch of the table-scan kernels.
#include "simd/table_scan.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/table_scan.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "simd/dispatch_table.h"
#include "simd/table_scan-inl.h"

#if HWY_ONCE
namespace vblitz::simd {

HWY_EXPORT(TableSum);
HWY_EXPORT(MaskedPopcounts);

int32_t table_sum_vector(const int32_t* tables, const uint64_t* squares, size_t count) {
  return VBLITZ_DISPATCH(TableSum)(tables, squares, count);
}

void masked_popcounts_vector(const uint64_t* sets, size_t count, uint64_t mask, int32_t* out) {
  VBLITZ_DISPATCH(MaskedPopcounts)(sets, count, mask, out);
}

}  // namespace vblitz::simd
#endif  // HWY_ONCE
