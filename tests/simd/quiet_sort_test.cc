// Move-ordering kernel: every compiled SIMD target against the insertion sort, on lists of
// every length up to the longest move list, with many equal scores (whose order must be kept)
// and the extreme scores; and a known case checked by hand.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "tests/simd/quiet_sort_test.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
#include <hwy/tests/hwy_gtest.h>

#include <climits>
#include <cstring>

#include "core/prng.h"
#include "simd/quiet_sort-inl.h"

HWY_BEFORE_NAMESPACE();
namespace vblitz::simd::HWY_NAMESPACE {

using core::Move;

void TestSortByScoreMatchesScalar() {
  core::Prng rng(77);
  Move moves[core::kMaxMoves], expected_moves[core::kMaxMoves];
  int32_t scores[core::kMaxMoves], expected_scores[core::kMaxMoves];
  for (int trial = 0; trial < 3000; ++trial) {
    const size_t count = trial < 600 ? size_t(trial % (core::kMaxMoves + 1)) : rng.below(64);
    const int spread = trial % 3 == 0 ? 4 : 40000;  // few distinct scores: ties everywhere
    for (size_t i = 0; i < count; ++i) {
      moves[i] = Move(uint16_t(rng.next()));
      scores[i] = int32_t(rng.below(uint64_t(spread))) - spread / 2;
      if (trial % 7 == 0 && i % 5 == 0) scores[i] = i % 2 ? INT32_MAX : INT32_MIN;
    }
    std::memcpy(expected_moves, moves, sizeof(moves));
    std::memcpy(expected_scores, scores, sizeof(scores));
    sort_by_score_scalar(expected_moves, expected_scores, count);
    SortByScore(moves, scores, count);
    for (size_t i = 0; i < count; ++i) {
      ASSERT_EQ(moves[i], expected_moves[i]) << "trial " << trial << " index " << i << " of " << count;
      ASSERT_EQ(scores[i], expected_scores[i]) << "trial " << trial << " index " << i << " of " << count;
    }
  }
}

void TestSortByScoreKnownCase() {
  Move moves[5] = {Move(10), Move(11), Move(12), Move(13), Move(14)};
  int32_t scores[5] = {-3, 7, -3, 7, 0};
  SortByScore(moves, scores, 5);
  const Move want[5] = {Move(11), Move(13), Move(14), Move(10), Move(12)};  // ties in list order
  const int32_t want_scores[5] = {7, 7, 0, -3, -3};
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(moves[i], want[i]) << i;
    EXPECT_EQ(scores[i], want_scores[i]) << i;
  }
}

}  // namespace vblitz::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vblitz::simd {
HWY_BEFORE_TEST(QuietSortTest);
HWY_EXPORT_AND_TEST_P(QuietSortTest, TestSortByScoreMatchesScalar);
HWY_EXPORT_AND_TEST_P(QuietSortTest, TestSortByScoreKnownCase);
}  // namespace vblitz::simd
#endif  // HWY_ONCE
