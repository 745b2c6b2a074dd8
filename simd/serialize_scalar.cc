// Scalar twin of the serialization kernel: the classic pop-least-significant-bit loop.
#include <bit>

#include "simd/serialize.h"

namespace vblitz::simd {

size_t serialize_scalar(uint64_t targets, uint16_t to_factor, uint16_t base, uint16_t* out) {
  size_t count = 0;
  for (; targets; targets &= targets - 1)
    out[count++] = uint16_t(uint16_t(std::countr_zero(targets)) * to_factor + base);
  return count;
}

}  // namespace vblitz::simd
