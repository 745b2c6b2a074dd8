// Slider kernels: every compiled SIMD target against the table-lookup twin, on random
// occupancies for every square and on the sliders of the perft-suite positions.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "tests/simd/slider_attacks_test.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
#include <hwy/tests/hwy_gtest.h>

#include "core/position.h"
#include "core/prng.h"
#include "simd/slider_attacks-inl.h"
#include "tests/test_support.h"

HWY_BEFORE_NAMESPACE();
namespace vblitz::simd::HWY_NAMESPACE {

void TestSingleSquareMatchesTables() {
  core::Prng rng(21);
  for (int square = 0; square < 64; ++square) {
    for (int trial = 0; trial < 500; ++trial) {
      uint64_t occupied = rng.next() & rng.next();
      ASSERT_EQ(SliderAttacksOf(square, occupied), slider_attacks_scalar(square, occupied)) << square;
    }
  }
}

void TestSideMapsMatchPerPieceLoop() {
  core::Prng rng(22);
  for (int trial = 0; trial < 20000; ++trial) {
    uint64_t occupied = rng.next() & rng.next();
    uint64_t orthogonal = occupied & rng.next() & rng.next(), diagonal = occupied & rng.next() & rng.next();
    ASSERT_EQ(SideSliderAttacks(orthogonal, diagonal, occupied),
              side_slider_attacks_scalar(orthogonal, diagonal, occupied));
  }
  for (const std::string& fen : test::suite_fens()) {
    core::StateInfo si;
    core::Position pos;
    ASSERT_FALSE(pos.set(fen, si));
    for (core::Color c : {core::WHITE, core::BLACK}) {
      uint64_t orthogonal = pos.pieces(c, core::ROOK, core::QUEEN),
               diagonal = pos.pieces(c, core::BISHOP, core::QUEEN);
      ASSERT_EQ(SideSliderAttacks(orthogonal, diagonal, pos.pieces()),
                side_slider_attacks_scalar(orthogonal, diagonal, pos.pieces()))
          << fen;
    }
  }
}

}  // namespace vblitz::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vblitz::simd {
HWY_BEFORE_TEST(SliderAttacksTest);
HWY_EXPORT_AND_TEST_P(SliderAttacksTest, TestSingleSquareMatchesTables);
HWY_EXPORT_AND_TEST_P(SliderAttacksTest, TestSideMapsMatchPerPieceLoop);
}  // namespace vblitz::simd
#endif  // HWY_ONCE
