// Highway kernels for the evaluation table scans (compiled once per SIMD target).
#if defined(VBLITZ_SIMD_TABLE_SCAN_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef VBLITZ_SIMD_TABLE_SCAN_INL_H_
#undef VBLITZ_SIMD_TABLE_SCAN_INL_H_
#else
#define VBLITZ_SIMD_TABLE_SCAN_INL_H_
#endif

#include <hwy/highway.h>

#include "simd/table_scan.h"

HWY_BEFORE_NAMESPACE();
namespace vblitz::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Lanes i .. i+N-1 of the squares in `bits` as a mask (`bytes` holds bits little-endian).
template <class D>
HWY_INLINE hn::Mask<D> SquareMask(D d, const uint8_t* bytes, uint64_t chunk, size_t i) {
  if (hn::Lanes(d) >= 8) return hn::LoadMaskBits(d, bytes + i / 8);
  using T = hn::TFromD<D>;
  const auto lane_bit = hn::Shl(hn::Set(d, T{1}), hn::Iota(d, 0));
  return hn::Ne(hn::And(hn::Set(d, T(chunk)), lane_bit), hn::Zero(d));
}

inline int32_t TableSum(const int32_t* HWY_RESTRICT tables, const uint64_t* HWY_RESTRICT squares,
                        size_t count) {
  const hn::CappedTag<int32_t, 64> d;
  const size_t N = hn::Lanes(d);
  auto sum = hn::Zero(d);
  for (size_t k = 0; k < count; ++k) {
    const uint64_t bits = squares[k];
    uint8_t bytes[8];
    for (int b = 0; b < 8; ++b) bytes[b] = uint8_t(bits >> (8 * b));
    for (size_t i = 0; i < 64; i += N) {
      const uint64_t chunk = N >= 64 ? bits : (bits >> i) & ((uint64_t{1} << N) - 1);
      if (!chunk) continue;
      sum = hn::Add(sum, hn::MaskedLoad(SquareMask(d, bytes, chunk, i), d, tables + 64 * k + i));
    }
  }
  return hn::GetLane(hn::SumOfLanes(d, sum));
}

inline void MaskedPopcounts(const uint64_t* HWY_RESTRICT sets, size_t count, uint64_t mask,
                            int32_t* HWY_RESTRICT out) {
  const hn::CappedTag<uint64_t, 8> d;
  const size_t N = hn::Lanes(d);
  const auto m = hn::Set(d, mask);
  alignas(64) uint64_t counts[8];
  size_t k = 0;
  for (; k + N <= count; k += N) {
    hn::Store(hn::PopulationCount(hn::And(hn::LoadU(d, sets + k), m)), d, counts);
    for (size_t j = 0; j < N; ++j) out[k + j] = int32_t(counts[j]);
  }
  for (; k < count; ++k) out[k] = int32_t(hn::GetLane(hn::PopulationCount(hn::Set(d, sets[k] & mask))));
}

}  // namespace vblitz::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
