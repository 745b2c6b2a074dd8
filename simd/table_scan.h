// Evaluation table-scan kernels: sums of per-square table entries over bitboards (piece-square
// and other per-square tables, Deep Blue style), and population counts of masked attack sets
// (mobility). Integer arithmetic only, so the vector results equal the scalar twins exactly.
#pragma once

#include <cstddef>
#include <cstdint>

#include "simd/dispatch.h"

namespace vblitz::simd {

// Sum over k < count of tables[64 * k + s] for every square s in squares[k].
int32_t table_sum_scalar(const int32_t* tables, const uint64_t* squares, size_t count);
int32_t table_sum_vector(const int32_t* tables, const uint64_t* squares, size_t count);

// out[k] = popcount(sets[k] & mask) for k < count.
void masked_popcounts_scalar(const uint64_t* sets, size_t count, uint64_t mask, int32_t* out);
void masked_popcounts_vector(const uint64_t* sets, size_t count, uint64_t mask, int32_t* out);

inline int32_t table_sum(const int32_t* tables, const uint64_t* squares, size_t count) {
  return use_vector(Kernel::kTableScan) ? table_sum_vector(tables, squares, count)
                                        : table_sum_scalar(tables, squares, count);
}
inline void masked_popcounts(const uint64_t* sets, size_t count, uint64_t mask, int32_t* out) {
  use_vector(Kernel::kTableScan) ? masked_popcounts_vector(sets, count, mask, out)
                                 : masked_popcounts_scalar(sets, count, mask, out);
}

}  // namespace vblitz::simd
