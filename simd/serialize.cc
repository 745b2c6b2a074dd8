// Dispatch of the serialization kernel.
#include "simd/serialize.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/serialize.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include "simd/dispatch_table.h"
#include "simd/serialize-inl.h"

#if HWY_ONCE
namespace vblitz::simd {

HWY_EXPORT(Serialize);

size_t serialize_vector(uint64_t targets, uint16_t to_factor, uint16_t base, uint16_t* out) {
  return VBLITZ_DISPATCH(Serialize)(targets, to_factor, base, out);
}

SerializeFn serialize_vector_pointer(size_t index) { return HWY_DISPATCH_TABLE(Serialize)[index]; }

}  // namespace vblitz::simd
#endif  // HWY_ONCE
