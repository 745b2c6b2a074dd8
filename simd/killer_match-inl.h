// Highway kernel for the killer-list search (compiled once per SIMD target).
#if defined(VBLITZ_SIMD_KILLER_MATCH_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef VBLITZ_SIMD_KILLER_MATCH_INL_H_
#undef VBLITZ_SIMD_KILLER_MATCH_INL_H_
#else
#define VBLITZ_SIMD_KILLER_MATCH_INL_H_
#endif

#include <hwy/highway.h>

#include "simd/killer_match.h"

HWY_BEFORE_NAMESPACE();
namespace vblitz::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

inline int FindMove(const uint16_t* HWY_RESTRICT list, size_t count, uint16_t move) {
  const hn::CappedTag<uint16_t, kKillerListCapacity> d;
  const size_t N = hn::Lanes(d);
  const auto wanted = hn::Set(d, move);
  for (size_t i = 0; i < count; i += N) {
    const auto hit = hn::And(hn::Eq(hn::LoadU(d, list + i), wanted), hn::FirstN(d, count - i));
    const intptr_t first = hn::FindFirstTrue(d, hit);
    if (first >= 0) return int(i) + int(first);
  }
  return -1;
}

}  // namespace vblitz::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
