// Highway kernels of the network evaluation (compiled once per SIMD target).
#if defined(VBLITZ_SIMD_NETWORK_KERNELS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef VBLITZ_SIMD_NETWORK_KERNELS_INL_H_
#undef VBLITZ_SIMD_NETWORK_KERNELS_INL_H_
#else
#define VBLITZ_SIMD_NETWORK_KERNELS_INL_H_
#endif

#include <hwy/highway.h>

#include "simd/network_kernels.h"

HWY_BEFORE_NAMESPACE();
namespace vblitz::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// One vector of the accumulator at a time: the base, every added row and every subtracted row
// meet in a register and are stored once (a refresh of 32 rows loads the output lane once).
inline void Accumulate(int16_t* out, const int16_t* base, const int16_t* const* add, size_t add_count,
                       const int16_t* const* sub, size_t sub_count, size_t width) {
  const hn::ScalableTag<int16_t> d;
  const size_t N = hn::Lanes(d);
  const size_t whole = width - width % N;
  for (size_t i = 0; i < whole; i += N) {
    auto v = hn::LoadU(d, base + i);
    for (size_t k = 0; k < add_count; ++k) v = hn::Add(v, hn::LoadU(d, add[k] + i));
    for (size_t k = 0; k < sub_count; ++k) v = hn::Sub(v, hn::LoadU(d, sub[k] + i));
    hn::StoreU(v, d, out + i);
  }
  for (size_t i = whole; i < width; ++i) {  // a width that is not a whole number of vectors
    int16_t v = base[i];
    for (size_t k = 0; k < add_count; ++k) v = int16_t(v + add[k][i]);
    for (size_t k = 0; k < sub_count; ++k) v = int16_t(v - sub[k][i]);
    out[i] = v;
  }
}

// c = clamp(acc, 0, clip); c * w fits int16, so one int16 multiply and one widening
// multiply-add of pairs (vpmaddwd on x86) give c * c * w in int32 lanes.
inline int32_t ScreluDot(const int16_t* HWY_RESTRICT acc, const int16_t* HWY_RESTRICT weights, size_t width,
                         int16_t clip) {
  const hn::ScalableTag<int16_t> d16;
  const hn::Repartition<int32_t, decltype(d16)> d32;
  const size_t N = hn::Lanes(d16);
  const auto zero = hn::Zero(d16), top = hn::Set(d16, clip);
  auto sum0 = hn::Zero(d32), sum1 = hn::Zero(d32);
  const size_t whole = width - width % N;
  for (size_t i = 0; i < whole; i += N) {
    const auto c = hn::Min(hn::Max(hn::LoadU(d16, acc + i), zero), top);
    sum0 = hn::ReorderWidenMulAccumulate(d32, hn::Mul(c, hn::LoadU(d16, weights + i)), c, sum0, sum1);
  }
  int32_t sum = hn::GetLane(hn::SumOfLanes(d32, hn::Add(sum0, sum1)));
  for (size_t i = whole; i < width; ++i) {
    const int32_t c = acc[i] < 0 ? 0 : acc[i] > clip ? clip : acc[i];
    sum += c * c * weights[i];
  }
  return sum;
}

}  // namespace vblitz::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
