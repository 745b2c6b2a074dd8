// Probe kernels: every compiled SIMD target against the scalar twin on fixed-seed random
// buckets, plus hand-made buckets whose answers follow from Cray Blitz's rules.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "tests/simd/tt_probe_test.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
#include <hwy/tests/hwy_gtest.h>

#include "core/prng.h"
#include "simd/tt_probe-inl.h"

HWY_BEFORE_NAMESPACE();
namespace vblitz::simd::HWY_NAMESPACE {

using tt::Bound;

// An entry drawn from a small space so that matches, empty slots and ties all occur often.
uint64_t random_entry(core::Prng& rng) {
  return tt::pack(uint16_t(rng.below(4)), uint16_t(rng.next()), int16_t(rng.next()), uint8_t(rng.below(4)),
                  Bound(rng.below(4)), uint8_t(rng.below(3)));
}

void TestProbeBucketMatchesScalar() {
  core::Prng rng(11);
  alignas(64) uint64_t bucket[kBucketSlots];
  for (int trial = 0; trial < 20000; ++trial) {
    for (uint64_t& e : bucket) e = random_entry(rng);
    uint16_t key16 = uint16_t(rng.below(4));
    uint8_t age = uint8_t(rng.below(3));
    Bound bound = Bound(1 + rng.below(3));
    ASSERT_EQ(ProbeBucket(bucket, key16, age, bound), probe_bucket_scalar(bucket, key16, age, bound))
        << trial;
  }
}

void TestProbeCrayMatchesScalar() {
  core::Prng rng(12);
  std::vector<uint64_t> table(4096 + 7 * 1024);
  for (uint64_t& e : table) e = random_entry(rng);
  for (int trial = 0; trial < 20000; ++trial) {
    uint64_t base = rng.below(4096), stride = 1 + rng.below(1024);
    uint16_t key16 = uint16_t(rng.below(4));
    uint8_t age = uint8_t(rng.below(3));
    Bound bound = Bound(1 + rng.below(3));
    ASSERT_EQ(ProbeCray(table.data(), base, stride, key16, age, bound),
              probe_cray_scalar(table.data(), base, stride, key16, age, bound))
        << trial;
  }
}

void TestReplacementRules() {
  alignas(64) uint64_t bucket[kBucketSlots];
  // All slots from this search (age 5) with draft 10, except slot 5 from an older search.
  for (uint64_t& e : bucket) e = tt::pack(100, 0, 0, 10, tt::BOUND_LOWER, 5);
  bucket[5] = tt::pack(101, 0, 0, 30, tt::BOUND_EXACT, 4);
  EXPECT_EQ(ProbeBucket(bucket, 101, 5, tt::BOUND_LOWER), (tt::ProbeResult{5, 5}));
  // Same age everywhere: the smallest draft goes, but an exact entry survives a bound.
  bucket[5] = tt::pack(102, 0, 0, 9, tt::BOUND_EXACT, 5);
  bucket[6] = tt::pack(103, 0, 0, 8, tt::BOUND_EXACT, 5);
  bucket[2] = tt::pack(104, 0, 0, 9, tt::BOUND_UPPER, 5);
  EXPECT_EQ(ProbeBucket(bucket, 7, 5, tt::BOUND_UPPER), (tt::ProbeResult{-1, 2}));
  // Storing an exact score, the shallowest entry goes whatever its bound.
  EXPECT_EQ(ProbeBucket(bucket, 7, 5, tt::BOUND_EXACT), (tt::ProbeResult{-1, 6}));
  // An empty slot is taken first; the first of two matches is reported.
  bucket[3] = 0;
  bucket[7] = tt::pack(104, 0, 0, 1, tt::BOUND_LOWER, 5);
  EXPECT_EQ(ProbeBucket(bucket, 104, 5, tt::BOUND_LOWER), (tt::ProbeResult{2, 3}));
}

}  // namespace vblitz::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vblitz::simd {
HWY_BEFORE_TEST(TtProbeTest);
HWY_EXPORT_AND_TEST_P(TtProbeTest, TestProbeBucketMatchesScalar);
HWY_EXPORT_AND_TEST_P(TtProbeTest, TestProbeCrayMatchesScalar);
HWY_EXPORT_AND_TEST_P(TtProbeTest, TestReplacementRules);

// The run-time selection reaches every target, and the scalar setting uses the twin.
TEST(TtProbeDispatch, EverySelectableTargetAgreesWithTheScalarTwin) {
  alignas(64) uint64_t bucket[kBucketSlots];
  for (int k = 0; k < kBucketSlots; ++k)
    bucket[k] = tt::pack(uint16_t(k), 0, 0, uint8_t(9 - k), tt::BOUND_LOWER, 1);
  for (const std::string& target : available_targets()) {
    ASSERT_TRUE(set_simd_target(target));
    EXPECT_EQ(active_target(), target);
    EXPECT_EQ(probe_bucket_vector(bucket, 3, 1, tt::BOUND_LOWER), (tt::ProbeResult{3, 7})) << target;
  }
  EXPECT_TRUE(set_simd_target("best"));
  EXPECT_FALSE(set_simd_target("no_such_target"));
  EXPECT_EQ(simd_target(), "best");
}
}  // namespace vblitz::simd
#endif  // HWY_ONCE
