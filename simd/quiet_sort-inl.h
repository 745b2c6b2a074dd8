// Highway kernel for the move-ordering sort (compiled once per SIMD target).
#if defined(VBLITZ_SIMD_QUIET_SORT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef VBLITZ_SIMD_QUIET_SORT_INL_H_
#undef VBLITZ_SIMD_QUIET_SORT_INL_H_
#else
#define VBLITZ_SIMD_QUIET_SORT_INL_H_
#endif

#include <hwy/contrib/sort/traits-inl.h>
#include <hwy/contrib/sort/vqsort-inl.h>
#include <hwy/highway.h>

#include "simd/quiet_sort.h"

HWY_BEFORE_NAMESPACE();
namespace vblitz::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// sort_by_score on this target. Each move becomes one 64-bit key: the score (sign bit flipped,
// so that unsigned order is signed order) above the complement of its index above the move.
// Keys are unique, so any correct sort gives one order, which is the stable sort's: higher
// score first, then lower index.
inline void SortByScore(core::Move* HWY_RESTRICT moves, int32_t* HWY_RESTRICT scores, size_t count) {
  if (count < 2) return;
  HWY_ALIGN uint64_t keys[core::kMaxMoves];
  for (size_t i = 0; i < count; ++i)
    keys[i] =
        uint64_t(uint32_t(scores[i]) ^ 0x80000000u) << 32 | uint64_t(0xFFFFu - i) << 16 | moves[i].raw();
  using Descending = hn::detail::SharedTraits<hn::detail::TraitsLane<hn::detail::OrderDescending<uint64_t>>>;
#if VQSORT_ENABLED
  // vqsort's own steps (Highway 1.0.3's hn::Sort without its entry, which reads the OS's random
  // source on every call to seed pivot sampling: 250 ns, more than sorting a node's moves).
  // Lists up to BaseCaseNum keys (128 with AVX-512, 32 with SSE4) are one sorting network;
  // longer ones are partitioned with pivots sampled by a fixed-seed generator.
  const hn::CappedTag<uint64_t, 64 / sizeof(uint64_t)> d;  // vqsort's networks take at most 64 bytes
  HWY_ALIGN uint64_t scratch[hwy::SortConstants::BufNum<uint64_t>(64 / sizeof(uint64_t))];
  if (count <= hwy::SortConstants::BaseCaseNum(hn::Lanes(d))) {
    hn::detail::BaseCase(d, Descending(), keys, keys + count, count, scratch);
  } else {
    hn::detail::Generator rng(uint64_t{0x9E3779B97F4A7C15});
    hn::detail::Recurse(d, Descending(), keys, keys + count, count, scratch, rng,
                        2 * hwy::CeilLog2(count) + 4);
  }
#else
  hn::Sort(hn::SortTag<uint64_t>(), Descending(), keys, count, keys);  // a heap sort here
#endif
  for (size_t i = 0; i < count; ++i) {
    moves[i] = core::Move(uint16_t(keys[i]));
    scores[i] = int32_t(uint32_t(keys[i] >> 32) ^ 0x80000000u);
  }
}

}  // namespace vblitz::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
