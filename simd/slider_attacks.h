// Slider attack kernels: the eight ray directions in eight 64-bit lanes, filled with the
// occluded (Kogge-Stone) fill. One square at a time, or all sliders of a side at once (attack
// maps for evaluation, check and pin detection). The scalar twins are core's table lookups.
#pragma once

#include <cstdint>

#include "simd/dispatch.h"

namespace vblitz::simd {

struct SliderAttacks {
  uint64_t rook;
  uint64_t bishop;
  bool operator==(const SliderAttacks&) const = default;
};

// Rook and bishop attacks from `square` (0 = a1 .. 63 = h8) with the given occupancy.
SliderAttacks slider_attacks_scalar(int square, uint64_t occupied);
SliderAttacks slider_attacks_vector(int square, uint64_t occupied);

// Every square attacked by the sliders in `orthogonal` (rooks and queens) and `diagonal`
// (bishops and queens), with the given occupancy.
uint64_t side_slider_attacks_scalar(uint64_t orthogonal, uint64_t diagonal, uint64_t occupied);
uint64_t side_slider_attacks_vector(uint64_t orthogonal, uint64_t diagonal, uint64_t occupied);

inline SliderAttacks slider_attacks(int square, uint64_t occupied) {
  return use_vector(Kernel::kSliderAttacks) ? slider_attacks_vector(square, occupied)
                                            : slider_attacks_scalar(square, occupied);
}
inline uint64_t side_slider_attacks(uint64_t orthogonal, uint64_t diagonal, uint64_t occupied) {
  return use_vector(Kernel::kSliderAttacks) ? side_slider_attacks_vector(orthogonal, diagonal, occupied)
                                            : side_slider_attacks_scalar(orthogonal, diagonal, occupied);
}

}  // namespace vblitz::simd
