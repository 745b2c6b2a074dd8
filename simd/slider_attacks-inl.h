// Highway kernels for slider attacks (compiled once per SIMD target).
#if defined(VBLITZ_SIMD_SLIDER_ATTACKS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef VBLITZ_SIMD_SLIDER_ATTACKS_INL_H_
#undef VBLITZ_SIMD_SLIDER_ATTACKS_INL_H_
#else
#define VBLITZ_SIMD_SLIDER_ATTACKS_INL_H_
#endif

#include <hwy/highway.h>

#include "simd/slider_attacks.h"

HWY_BEFORE_NAMESPACE();
namespace vblitz::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Lane k fills direction k: lanes 0-3 are N, S, E, W (rook), lanes 4-7 NE, NW, SE, SW (bishop).
constexpr uint64_t kNotFileA = ~0x0101010101010101ULL, kNotFileH = ~0x8080808080808080ULL;
alignas(64) constexpr uint64_t kStep[8] = {8, 8, 1, 1, 9, 7, 7, 9};
// 1 where the direction raises the square index (shift left), 0 where it lowers it.
alignas(64) constexpr uint64_t kLeft[8] = {1, 0, 1, 0, 1, 1, 0, 0};
// Squares a one-step move in the lane's direction may land on without wrapping around.
alignas(64) constexpr uint64_t kLanding[8] = {~0ULL,     ~0ULL,     kNotFileA, kNotFileH,
                                              kNotFileA, kNotFileH, kNotFileA, kNotFileH};

// Per-lane shift: up by `amount` in left lanes, down in the others.
template <class D, class M>
HWY_INLINE hn::Vec<D> StepShift(hn::Vec<D> v, M left, hn::Vec<D> amount) {
  return hn::IfThenElse(left, hn::Shl(v, amount), hn::Shr(v, amount));
}

// Fills lanes i .. i+N-1 of the eight directions from the generator sets in `g` through empty
// squares and returns the squares each lane's direction attacks (i a multiple of N).
template <class D>
HWY_INLINE hn::Vec<D> FillChunk(D d, hn::Vec<D> g, uint64_t occupied, size_t i) {
  const auto left = hn::Ne(hn::Load(d, kLeft + i), hn::Zero(d));
  const auto step1 = hn::Load(d, kStep + i);
  const auto step2 = hn::Add(step1, step1);
  const auto step4 = hn::Add(step2, step2);
  const auto landing = hn::Load(d, kLanding + i);
  auto empty = hn::AndNot(hn::Set(d, occupied), landing);
  g = hn::Or(g, hn::And(empty, StepShift<D>(g, left, step1)));
  empty = hn::And(empty, StepShift<D>(empty, left, step1));
  g = hn::Or(g, hn::And(empty, StepShift<D>(g, left, step2)));
  empty = hn::And(empty, StepShift<D>(empty, left, step2));
  g = hn::Or(g, hn::And(empty, StepShift<D>(g, left, step4)));
  return hn::And(landing, StepShift<D>(g, left, step1));
}

// Fills from generator sets gen[k] along direction k for k = 0..7 through empty squares, and
// writes the attacked squares of each direction to out[k].
HWY_INLINE void FillDirections(const uint64_t* HWY_RESTRICT gen, uint64_t occupied,
                               uint64_t* HWY_RESTRICT out) {
  const hn::CappedTag<uint64_t, 8> d;
  const size_t N = hn::Lanes(d);
  for (size_t i = 0; i < 8; i += N) hn::StoreU(FillChunk(d, hn::LoadU(d, gen + i), occupied, i), d, out + i);
}

inline SliderAttacks SliderAttacksOf(int square, uint64_t occupied) {
  alignas(64) uint64_t gen[8], rays[8];
  for (uint64_t& g : gen) g = uint64_t{1} << square;
  FillDirections(gen, occupied, rays);
  return {rays[0] | rays[1] | rays[2] | rays[3], rays[4] | rays[5] | rays[6] | rays[7]};
}

inline uint64_t SideSliderAttacks(uint64_t orthogonal, uint64_t diagonal, uint64_t occupied) {
  alignas(64) uint64_t gen[8] = {orthogonal, orthogonal, orthogonal, orthogonal,
                                 diagonal,   diagonal,   diagonal,   diagonal};
  alignas(64) uint64_t rays[8];
  FillDirections(gen, occupied, rays);
  return rays[0] | rays[1] | rays[2] | rays[3] | rays[4] | rays[5] | rays[6] | rays[7];
}

}  // namespace vblitz::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
