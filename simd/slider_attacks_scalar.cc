// Scalar twins of the slider kernels: core's magic (or PEXT) table lookups, piece by piece.
#include "core/bitboard.h"
#include "simd/slider_attacks.h"

namespace vblitz::simd {

SliderAttacks slider_attacks_scalar(int square, uint64_t occupied) {
  core::Square s = core::Square(square);
  return {core::rook_attacks(s, occupied), core::bishop_attacks(s, occupied)};
}

uint64_t side_slider_attacks_scalar(uint64_t orthogonal, uint64_t diagonal, uint64_t occupied) {
  uint64_t attacks = 0;
  while (orthogonal) attacks |= core::rook_attacks(core::pop_lsb(orthogonal), occupied);
  while (diagonal) attacks |= core::bishop_attacks(core::pop_lsb(diagonal), occupied);
  return attacks;
}

}  // namespace vblitz::simd
