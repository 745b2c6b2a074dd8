// Highway kernels for the transposition-table probes (compiled once per SIMD target).
// Per-target include guard, as Highway requires for -inl.h files.
#if defined(VBLITZ_SIMD_TT_PROBE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef VBLITZ_SIMD_TT_PROBE_INL_H_
#undef VBLITZ_SIMD_TT_PROBE_INL_H_
#else
#define VBLITZ_SIMD_TT_PROBE_INL_H_
#endif

#include <hwy/highway.h>

#include "simd/tt_probe.h"

HWY_BEFORE_NAMESPACE();
namespace vblitz::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Folds one vector of entries (slots first_slot, first_slot + 1, ...) into the probe: records
// the first key match in `hit`, and keeps per lane the minimum of (replacement value << 3 | slot)
// in `best` -- the same order as tt::replacement_value, ties to the lower slot.
template <class D>
HWY_INLINE void ScanSlots(D d, hn::Vec<D> entries, size_t first_slot, uint16_t key16, uint64_t age,
                          uint64_t protect_exact, int& hit, hn::Vec<D>& best) {
  using V = hn::Vec<D>;
  const V bound = hn::And(hn::ShiftRight<tt::kBoundShift>(entries), hn::Set(d, 3));
  const auto occupied = hn::Ne(bound, hn::Zero(d));
  if (hit < 0) {
    const auto key_equal = hn::Eq(hn::And(entries, hn::Set(d, tt::kKeyMask)), hn::Set(d, key16));
    const intptr_t first = hn::FindFirstTrue(d, hn::And(occupied, key_equal));
    if (first >= 0) hit = int(first_slot) + int(first);
  }
  const V current = hn::IfThenElseZero(hn::Eq(hn::ShiftRight<tt::kAgeShift>(entries), hn::Set(d, age)),
                                       hn::Set(d, uint64_t{1} << 10));
  const V exact =
      hn::And(hn::IfThenElseZero(hn::Eq(bound, hn::Set(d, tt::BOUND_EXACT)), hn::Set(d, uint64_t{1} << 9)),
              hn::Set(d, protect_exact));
  const V draft = hn::ShiftLeft<1>(hn::And(hn::ShiftRight<tt::kDraftShift>(entries), hn::Set(d, 0xFF)));
  const V value = hn::IfThenElseZero(occupied, hn::Or(hn::Or(current, exact), hn::Or(draft, hn::Set(d, 1))));
  best = hn::Min(best, hn::Or(hn::ShiftLeft<3>(value), hn::Iota(d, first_slot)));
}

// The 8-slot probe over entries produced by `load(d, first_slot)`.
template <class D, class LoadFn>
HWY_INLINE tt::ProbeResult Probe(D d, LoadFn load, uint16_t key16, uint8_t age, tt::Bound new_bound) {
  const size_t N = hn::Lanes(d);
  const uint64_t protect_exact = new_bound == tt::BOUND_EXACT ? 0 : ~uint64_t{0};
  auto best = hn::Set(d, ~uint64_t{0});
  int hit = -1;
  for (size_t i = 0; i < size_t(kBucketSlots); i += N)
    ScanSlots(d, load(d, i), i, key16, age % tt::kAgeCycle, protect_exact, hit, best);
  return {hit, int(hn::GetLane(hn::MinOfLanes(d, best)) & 7)};
}

// Bucket layout: the eight slots are contiguous (one cache line).
inline tt::ProbeResult ProbeBucket(const uint64_t* HWY_RESTRICT bucket, uint16_t key16, uint8_t age,
                                   tt::Bound new_bound) {
  const hn::CappedTag<uint64_t, kBucketSlots> d;
  return Probe(
      d, [bucket](auto tag, size_t i) { return hn::LoadU(tag, bucket + i); }, key16, age, new_bound);
}

// Cray layout: slot k at table[base + k * stride], fetched with a gather.
inline tt::ProbeResult ProbeCray(const uint64_t* HWY_RESTRICT table, uint64_t base, uint64_t stride,
                                 uint16_t key16, uint8_t age, tt::Bound new_bound) {
  const hn::CappedTag<uint64_t, kBucketSlots> d;
  const hn::RebindToSigned<decltype(d)> di;
  alignas(64) int64_t index[kBucketSlots];
  for (int k = 0; k < kBucketSlots; ++k) index[k] = int64_t(base + uint64_t(k) * stride);
  auto load = [&](auto tag, size_t i) {
    return hn::GatherIndex(tag, reinterpret_cast<const uint64_t*>(table), hn::LoadU(di, index + i));
  };
  return Probe(d, load, key16, age, new_bound);
}

}  // namespace vblitz::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
