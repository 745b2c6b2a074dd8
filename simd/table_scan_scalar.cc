// Scalar twins of the table-scan kernels: loops over set bits.
#include <bit>

#include "simd/table_scan.h"

namespace vblitz::simd {

int32_t table_sum_scalar(const int32_t* tables, const uint64_t* squares, size_t count) {
  int32_t sum = 0;
  for (size_t k = 0; k < count; ++k)
    for (uint64_t b = squares[k]; b; b &= b - 1) sum += tables[64 * k + size_t(std::countr_zero(b))];
  return sum;
}

void masked_popcounts_scalar(const uint64_t* sets, size_t count, uint64_t mask, int32_t* out) {
  for (size_t k = 0; k < count; ++k) out[k] = std::popcount(sets[k] & mask);
}

}  // namespace vblitz::simd
