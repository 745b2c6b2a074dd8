// Highway kernel counting knight and slider moves set-wise (compiled once per SIMD target).
#if defined(VBLITZ_SIMD_MOVE_COUNT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef VBLITZ_SIMD_MOVE_COUNT_INL_H_
#undef VBLITZ_SIMD_MOVE_COUNT_INL_H_
#else
#define VBLITZ_SIMD_MOVE_COUNT_INL_H_
#endif

#include <hwy/highway.h>

#include "simd/slider_attacks-inl.h"

HWY_BEFORE_NAMESPACE();
namespace vblitz::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The eight knight jumps: lane k shifts by kJump[k], up where kJumpUp[k] is 1, and keeps the
// landing squares that did not wrap around a board edge.
constexpr uint64_t kNotFileAB = ~0x0303030303030303ULL, kNotFileGH = ~0xC0C0C0C0C0C0C0C0ULL;
alignas(64) constexpr uint64_t kJump[8] = {17, 15, 10, 6, 17, 15, 10, 6};
alignas(64) constexpr uint64_t kJumpUp[8] = {1, 1, 1, 1, 0, 0, 0, 0};
alignas(64) constexpr uint64_t kJumpLanding[8] = {kNotFileA, kNotFileH, kNotFileAB, kNotFileGH,
                                                  kNotFileH, kNotFileA, kNotFileGH, kNotFileAB};

inline int CountPieceMoves(uint64_t orthogonal, uint64_t diagonal, uint64_t knights, uint64_t occupied,
                           uint64_t target) {
  const hn::CappedTag<uint64_t, 8> d;
  const size_t N = hn::Lanes(d);
  const auto targets = hn::Set(d, target);
  const auto knight_set = hn::Set(d, knights);
  const auto rook_lanes = hn::Set(d, 4);  // lanes 0-3 fill rook directions, 4-7 bishop ones
  auto counts = hn::Zero(d);
  for (size_t i = 0; i < 8; i += N) {
    const auto generators =
        hn::IfThenElse(hn::Lt(hn::Iota(d, i), rook_lanes), hn::Set(d, orthogonal), hn::Set(d, diagonal));
    const auto rays = FillChunk(d, generators, occupied, i);
    const auto up = hn::Ne(hn::Load(d, kJumpUp + i), hn::Zero(d));
    const auto jumps = hn::And(hn::Load(d, kJumpLanding + i),
                               StepShift<decltype(d)>(knight_set, up, hn::Load(d, kJump + i)));
    counts = hn::Add(counts, hn::PopulationCount(hn::And(rays, targets)));
    counts = hn::Add(counts, hn::PopulationCount(hn::And(jumps, targets)));
  }
  return int(hn::GetLane(hn::SumOfLanes(d, counts)));
}

}  // namespace vblitz::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
