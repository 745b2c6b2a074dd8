// Network kernels: every compiled SIMD target against the scalar twins, bit for bit, on
// fixed-seed random rows and accumulators (widths that are and are not whole vectors,
// extreme values that wrap), and on hand-computed cases.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "tests/simd/network_kernels_test.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
#include <hwy/tests/hwy_gtest.h>

#include <vector>

#include "core/prng.h"
#include "simd/network_kernels-inl.h"

HWY_BEFORE_NAMESPACE();
namespace vblitz::simd::HWY_NAMESPACE {

// A random int16: full range when `extreme`, else small weights like a trained network's.
int16_t random_lane(core::Prng& rng, bool extreme) {
  return extreme ? int16_t(uint16_t(rng.next())) : int16_t(int(rng.below(1011)) - 505);
}

void TestAccumulateMatchesScalar() {
  core::Prng rng(71);
  constexpr size_t kRows = 40, kMaxWidth = 300;
  std::vector<int16_t> rows(kRows * kMaxWidth), base(kMaxWidth), expected(kMaxWidth), actual(kMaxWidth);
  for (int trial = 0; trial < 3000; ++trial) {
    const bool extreme = trial % 3 == 0;
    for (int16_t& v : rows) v = random_lane(rng, extreme);
    for (int16_t& v : base) v = random_lane(rng, extreme);
    const size_t width = trial % 2 ? 16 * (1 + rng.below(kMaxWidth / 16)) : 1 + rng.below(kMaxWidth);
    const size_t adds = rng.below(33), subs = rng.below(3);
    std::vector<const int16_t*> add, sub;
    for (size_t k = 0; k < adds; ++k) add.push_back(&rows[rng.below(kRows) * kMaxWidth]);
    for (size_t k = 0; k < subs; ++k) sub.push_back(&rows[rng.below(kRows) * kMaxWidth]);
    accumulate_scalar(expected.data(), base.data(), add.data(), adds, sub.data(), subs, width);
    Accumulate(actual.data(), base.data(), add.data(), adds, sub.data(), subs, width);
    for (size_t i = 0; i < width; ++i)
      ASSERT_EQ(actual[i], expected[i]) << "trial " << trial << " lane " << i;
    // In place, as the engine updates a refreshed accumulator.
    std::vector<int16_t> in_place = base;
    Accumulate(in_place.data(), in_place.data(), add.data(), adds, sub.data(), subs, width);
    for (size_t i = 0; i < width; ++i) ASSERT_EQ(in_place[i], expected[i]);
  }
}

void TestAccumulateKnownValues() {
  std::vector<int16_t> base(64, 100), a(64), b(64), c(64), out(64);
  for (int i = 0; i < 64; ++i) a[size_t(i)] = int16_t(i), b[size_t(i)] = int16_t(-2 * i), c[size_t(i)] = 7;
  const int16_t* add[] = {a.data(), b.data()};
  const int16_t* sub[] = {c.data()};
  Accumulate(out.data(), base.data(), add, 2, sub, 1, 64);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(out[size_t(i)], 100 + i - 2 * i - 7);
  std::vector<int16_t> top(64, 32767), one(64, 1);
  const int16_t* add_one[] = {one.data()};
  Accumulate(out.data(), top.data(), add_one, 1, nullptr, 0, 64);
  EXPECT_EQ(out[5], -32768);  // wraps: the vector adds are not saturating
}

void TestScreluDotMatchesScalar() {
  core::Prng rng(72);
  constexpr size_t kMaxWidth = 520;
  std::vector<int16_t> acc(kMaxWidth), weights(kMaxWidth);
  for (int trial = 0; trial < 5000; ++trial) {
    const int16_t clip = trial % 2 ? 255 : int16_t(1 + rng.below(255));
    const int16_t max_weight = int16_t(32767 / clip);  // the kernels' contract: c * w fits an int16
    for (int16_t& v : acc)
      v = trial % 5 == 0 ? int16_t(uint16_t(rng.next())) : int16_t(int(rng.below(700)) - 200);
    for (int16_t& w : weights) w = int16_t(int(rng.below(2 * size_t(max_weight) + 1)) - max_weight);
    const size_t width = trial % 2 ? 16 * (1 + rng.below(kMaxWidth / 16)) : rng.below(kMaxWidth + 1);
    ASSERT_EQ(ScreluDot(acc.data(), weights.data(), width, clip),
              screlu_dot_scalar(acc.data(), weights.data(), width, clip))
        << "trial " << trial;
  }
}

void TestScreluDotKnownValues() {
  std::vector<int16_t> acc = {-5, 0, 3, 255, 300, 10, 20, 30, -1, 2, 2, 2, 2, 2, 2, 2, 1, 1};
  std::vector<int16_t> weights = {9, 9, 2, 1, -1, 0, 1, -1, 5, 1, 1, 1, 1, 1, 1, 1, 3, -4};
  const int32_t expected = 9 * 2 + 255 * 255 - 255 * 255 + 400 - 900 + 7 * 4 + 3 - 4;
  EXPECT_EQ(ScreluDot(acc.data(), weights.data(), acc.size(), 255), expected);
  EXPECT_EQ(screlu_dot_scalar(acc.data(), weights.data(), acc.size(), 255), expected);
}

}  // namespace vblitz::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vblitz::simd {
HWY_BEFORE_TEST(NetworkKernelsTest);
HWY_EXPORT_AND_TEST_P(NetworkKernelsTest, TestAccumulateMatchesScalar);
HWY_EXPORT_AND_TEST_P(NetworkKernelsTest, TestAccumulateKnownValues);
HWY_EXPORT_AND_TEST_P(NetworkKernelsTest, TestScreluDotMatchesScalar);
HWY_EXPORT_AND_TEST_P(NetworkKernelsTest, TestScreluDotKnownValues);
}  // namespace vblitz::simd
#endif  // HWY_ONCE
