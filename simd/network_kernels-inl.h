// Highway kernels of the network evaluation (compiled once per SIMD target).
#if defined(VBLITZ_SIMD_NETWORK_KERNELS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef VBLITZ_SIMD_NETWORK_KERNELS_INL_H_
#undef VBLITZ_SIMD_NETWORK_KERNELS_INL_H_
#else
#define VBLITZ_SIMD_NETWORK_KERNELS_INL_H_
#endif

#include <hwy/highway.h>

#include <algorithm>

#include "simd/network_kernels.h"

HWY_BEFORE_NAMESPACE();
namespace vblitz::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Lanes [i, i + whole vectors of d) of the accumulator, one vector at a time: the base, every
// added row and every subtracted row meet in a register and are stored once (a refresh of 32
// rows loads the output lane once). Returns where it stopped.
template <class D>
HWY_INLINE size_t AccumulateVectors(D d, size_t i, int16_t* out, const int16_t* base,
                                    const int16_t* const* add, size_t add_count, const int16_t* const* sub,
                                    size_t sub_count, size_t width) {
  const size_t N = hn::Lanes(d);
  for (; i + N <= width; i += N) {
    auto v = hn::LoadU(d, base + i);
    for (size_t k = 0; k < add_count; ++k) v = hn::Add(v, hn::LoadU(d, add[k] + i));
    for (size_t k = 0; k < sub_count; ++k) v = hn::Sub(v, hn::LoadU(d, sub[k] + i));
    hn::StoreU(v, d, out + i);
  }
  return i;
}

// Whole vectors first, then narrower ones for what is left: a long vector (2048-bit SVE holds
// 128 values) may be wider than the whole accumulator (32 hidden values), which then still
// runs as one 512-bit operation instead of element by element.
inline void Accumulate(int16_t* out, const int16_t* base, const int16_t* const* add, size_t add_count,
                       const int16_t* const* sub, size_t sub_count, size_t width) {
  size_t i =
      AccumulateVectors(hn::ScalableTag<int16_t>(), 0, out, base, add, add_count, sub, sub_count, width);
  i = AccumulateVectors(hn::CappedTag<int16_t, 32>(), i, out, base, add, add_count, sub, sub_count, width);
  i = AccumulateVectors(hn::CappedTag<int16_t, 8>(), i, out, base, add, add_count, sub, sub_count, width);
  // Fewer than 8 values are left (the last loop's vectors hold at most 8). Saying so bounds the
  // loop for GCC 12, which otherwise warns of an overflowing iteration when this is inlined with
  // a constant width (-Waggressive-loop-optimizations).
  for (const size_t end = i + std::min<size_t>(width - i, 7); i < end; ++i) {
    int16_t v = base[i];
    for (size_t k = 0; k < add_count; ++k) v = int16_t(v + add[k][i]);
    for (size_t k = 0; k < sub_count; ++k) v = int16_t(v - sub[k][i]);
    out[i] = v;
  }
}

// The SCReLU dot product over lanes [i, i + whole vectors of d), added to `sum`; returns where
// it stopped. c = clamp(acc, 0, clip); c * w fits int16, so one int16 multiply and one
// widening multiply-add of pairs (vpmaddwd on x86) give c * c * w in int32 lanes.
template <class D>
HWY_INLINE size_t ScreluDotVectors(D d16, size_t i, const int16_t* HWY_RESTRICT acc,
                                   const int16_t* HWY_RESTRICT weights, size_t width, int16_t clip,
                                   int32_t& sum) {
  const hn::Repartition<int32_t, D> d32;
  const size_t N = hn::Lanes(d16);
  if (i + N > width) return i;
  const auto zero = hn::Zero(d16), top = hn::Set(d16, clip);
  auto sum0 = hn::Zero(d32), sum1 = hn::Zero(d32);
  for (; i + N <= width; i += N) {
    const auto c = hn::Min(hn::Max(hn::LoadU(d16, acc + i), zero), top);
    sum0 = hn::ReorderWidenMulAccumulate(d32, hn::Mul(c, hn::LoadU(d16, weights + i)), c, sum0, sum1);
  }
  sum += hn::GetLane(hn::SumOfLanes(d32, hn::Add(sum0, sum1)));
  return i;
}

// As Accumulate: whole vectors, then narrower ones, then single values.
inline int32_t ScreluDot(const int16_t* HWY_RESTRICT acc, const int16_t* HWY_RESTRICT weights, size_t width,
                         int16_t clip) {
  int32_t sum = 0;
  size_t i = ScreluDotVectors(hn::ScalableTag<int16_t>(), 0, acc, weights, width, clip, sum);
  i = ScreluDotVectors(hn::CappedTag<int16_t, 32>(), i, acc, weights, width, clip, sum);
  i = ScreluDotVectors(hn::CappedTag<int16_t, 8>(), i, acc, weights, width, clip, sum);
  for (; i < width; ++i) {
    const int32_t c = acc[i] < 0 ? 0 : acc[i] > clip ? clip : acc[i];
    sum += c * c * weights[i];
  }
  return sum;
}

}  // namespace vblitz::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
