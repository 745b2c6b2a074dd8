// Serialization kernel: every compiled SIMD target against the pop-lsb twin, and the moves it
// writes for a known bitboard.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "tests/simd/serialize_test.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
#include <hwy/tests/hwy_gtest.h>

#include <vector>

#include "core/prng.h"
#include "simd/serialize-inl.h"

HWY_BEFORE_NAMESPACE();
namespace vblitz::simd::HWY_NAMESPACE {

void TestSerializeMatchesScalar() {
  core::Prng rng(31);
  std::vector<uint16_t> expected(64 + kSerializeSlack), actual(64 + kSerializeSlack);
  for (int trial = 0; trial < 20000; ++trial) {
    int density = int(rng.below(4));
    uint64_t targets = rng.next();
    for (int i = 0; i < density; ++i) targets &= rng.next();
    if (trial % 100 == 0) targets = trial % 200 ? ~uint64_t{0} : 0;
    uint16_t factor = rng.below(2) ? 1 : 65, base = uint16_t(rng.next());
    size_t n = serialize_scalar(targets, factor, base, expected.data());
    ASSERT_EQ(Serialize(targets, factor, base, actual.data()), n);
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(actual[i], expected[i]) << trial << " " << i;
  }
}

void TestKnownMoves() {
  std::vector<uint16_t> out(64 + kSerializeSlack);
  // Knight on g1 (6) to e2 (12), f3 (21), h3 (23): moves are from << 6 | to.
  uint64_t targets = (uint64_t{1} << 12) | (uint64_t{1} << 21) | (uint64_t{1} << 23);
  ASSERT_EQ(Serialize(targets, 1, 6 << 6, out.data()), 3u);
  EXPECT_EQ(out[0], (6 << 6) | 12);
  EXPECT_EQ(out[1], (6 << 6) | 21);
  EXPECT_EQ(out[2], (6 << 6) | 23);
  // Pawn pushes e2-e3 and h2-h3 (offset 8): to * 65 - 8 * 64 = (to - 8) << 6 | to.
  targets = (uint64_t{1} << 20) | (uint64_t{1} << 23);
  ASSERT_EQ(Serialize(targets, 65, uint16_t(-(8 << 6)), out.data()), 2u);
  EXPECT_EQ(out[0], (12 << 6) | 20);
  EXPECT_EQ(out[1], (15 << 6) | 23);
}

}  // namespace vblitz::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vblitz::simd {
HWY_BEFORE_TEST(SerializeTest);
HWY_EXPORT_AND_TEST_P(SerializeTest, TestSerializeMatchesScalar);
HWY_EXPORT_AND_TEST_P(SerializeTest, TestKnownMoves);
}  // namespace vblitz::simd
#endif  // HWY_ONCE
