// Killer-list kernel: every compiled SIMD target against the linear search, including moves
// that sit past `count` (which must not be found).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "tests/simd/killer_match_test.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
#include <hwy/tests/hwy_gtest.h>

#include "core/prng.h"
#include "simd/killer_match-inl.h"

HWY_BEFORE_NAMESPACE();
namespace vblitz::simd::HWY_NAMESPACE {

void TestFindMoveMatchesScalar() {
  core::Prng rng(51);
  uint16_t list[kKillerListCapacity];
  for (int trial = 0; trial < 20000; ++trial) {
    for (uint16_t& m : list) m = uint16_t(rng.below(24));
    size_t count = rng.below(kKillerListCapacity + 1);
    uint16_t move = uint16_t(rng.below(24));
    ASSERT_EQ(FindMove(list, count, move), find_move_scalar(list, count, move)) << trial;
  }
}

void TestFindMoveKnownCases() {
  uint16_t list[kKillerListCapacity] = {5, 9, 9, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 42};
  EXPECT_EQ(FindMove(list, 4, 9), 1);
  EXPECT_EQ(FindMove(list, 4, 7), 3);
  EXPECT_EQ(FindMove(list, 3, 7), -1);  // beyond count
  EXPECT_EQ(FindMove(list, 15, 42), -1);
  EXPECT_EQ(FindMove(list, 16, 42), 15);
  EXPECT_EQ(FindMove(list, 0, 5), -1);
}

}  // namespace vblitz::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vblitz::simd {
HWY_BEFORE_TEST(KillerMatchTest);
HWY_EXPORT_AND_TEST_P(KillerMatchTest, TestFindMoveMatchesScalar);
HWY_EXPORT_AND_TEST_P(KillerMatchTest, TestFindMoveKnownCases);
}  // namespace vblitz::simd
#endif  // HWY_ONCE
