// Table-scan kernels: every compiled SIMD target against the scalar twins on fixed-seed random
// tables and bitboards, on the pieces of the perft-suite positions, and on hand-counted cases.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "tests/simd/table_scan_test.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
#include <hwy/tests/hwy_gtest.h>

#include <vector>

#include "core/position.h"
#include "core/prng.h"
#include "simd/table_scan-inl.h"
#include "tests/test_support.h"

HWY_BEFORE_NAMESPACE();
namespace vblitz::simd::HWY_NAMESPACE {

void TestTableSumMatchesScalar() {
  core::Prng rng(41);
  std::vector<int32_t> tables(64 * 12);
  for (int32_t& v : tables) v = int32_t(rng.below(2001)) - 1000;
  uint64_t squares[12];
  for (int trial = 0; trial < 5000; ++trial) {
    for (uint64_t& b : squares) b = rng.next() & rng.next() & rng.next();
    size_t count = 1 + rng.below(12);
    ASSERT_EQ(TableSum(tables.data(), squares, count), table_sum_scalar(tables.data(), squares, count));
  }
  for (const std::string& fen : test::suite_fens()) {
    core::StateInfo si;
    core::Position pos;
    ASSERT_FALSE(pos.set(fen, si));
    for (int p = 0; p < 12; ++p) squares[p] = pos.pieces(core::Color(p / 6), core::PieceType(p % 6 + 1));
    ASSERT_EQ(TableSum(tables.data(), squares, 12), table_sum_scalar(tables.data(), squares, 12)) << fen;
  }
}

void TestTableSumKnownValues() {
  std::vector<int32_t> tables(64 * 2);
  for (int s = 0; s < 64; ++s) tables[s] = s, tables[64 + s] = -2 * s;
  uint64_t squares[2] = {(1ULL << 0) | (1ULL << 10) | (1ULL << 63), 1ULL << 33};
  EXPECT_EQ(TableSum(tables.data(), squares, 2), 0 + 10 + 63 - 66);
  squares[0] = ~0ULL;
  EXPECT_EQ(TableSum(tables.data(), squares, 1), 63 * 64 / 2);
}

void TestMaskedPopcountsMatchScalar() {
  core::Prng rng(42);
  uint64_t sets[19];
  int32_t expected[19], actual[19];
  for (int trial = 0; trial < 5000; ++trial) {
    for (uint64_t& b : sets) b = rng.next() & rng.next();
    size_t count = rng.below(20);
    uint64_t mask = trial % 2 ? rng.next() : ~0ULL;
    masked_popcounts_scalar(sets, count, mask, expected);
    MaskedPopcounts(sets, count, mask, actual);
    for (size_t k = 0; k < count; ++k) ASSERT_EQ(actual[k], expected[k]);
  }
  sets[0] = 0xFF00FF;
  MaskedPopcounts(sets, 1, 0xF0F0F0, actual);
  EXPECT_EQ(actual[0], 8);
}

}  // namespace vblitz::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vblitz::simd {
HWY_BEFORE_TEST(TableScanTest);
HWY_EXPORT_AND_TEST_P(TableScanTest, TestTableSumMatchesScalar);
HWY_EXPORT_AND_TEST_P(TableScanTest, TestTableSumKnownValues);
HWY_EXPORT_AND_TEST_P(TableScanTest, TestMaskedPopcountsMatchScalar);
}  // namespace vblitz::simd
#endif  // HWY_ONCE
