// Move-counting kernel: every compiled SIMD target against the per-piece twin on random sets
// and on the pieces of the perft-suite positions, and count_legal with the kernel installed
// against the generated list along random playouts (checks, pins, en passant, castling and
// promotions all occur in the suites' playouts).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "tests/simd/move_count_test.cc"
#include "simd/move_count.h"

#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
#include <hwy/tests/hwy_gtest.h>

#include "core/movegen.h"
#include "core/prng.h"
#include "simd/move_count-inl.h"
#include "tests/test_support.h"

HWY_BEFORE_NAMESPACE();
namespace vblitz::simd::HWY_NAMESPACE {

void TestRandomSetsMatchTheTwin() {
  core::Prng rng(31);
  for (int trial = 0; trial < 50000; ++trial) {
    const uint64_t occupied = rng.next() & rng.next();
    const uint64_t mine = occupied & rng.next();
    const uint64_t orthogonal = mine & rng.next() & rng.next(), diagonal = mine & rng.next() & rng.next();
    const uint64_t knights = mine & ~orthogonal & ~diagonal & rng.next();
    const uint64_t target = trial % 2 ? ~mine : ~mine & rng.next();  // as in check: a subset
    ASSERT_EQ(CountPieceMoves(orthogonal, diagonal, knights, occupied, target),
              count_piece_moves_scalar(orthogonal, diagonal, knights, occupied, target))
        << std::hex << orthogonal << ' ' << diagonal << ' ' << knights << ' ' << occupied << ' ' << target;
  }
  // Edges and corners: every single knight and slider on every square, on an empty board.
  for (int s = 0; s < 64; ++s) {
    const uint64_t b = uint64_t{1} << s;
    ASSERT_EQ(CountPieceMoves(b, b, 0, b, ~b), count_piece_moves_scalar(b, b, 0, b, ~b)) << s;
    ASSERT_EQ(CountPieceMoves(0, 0, b, b, ~b), count_piece_moves_scalar(0, 0, b, b, ~b)) << s;
  }
}

void TestCountLegalWithTheKernelAlongPlayouts() {
  core::set_piece_move_counter(&CountPieceMoves);
  core::Prng rng(32);
  int positions = 0;
  for (const std::string& fen : test::suite_fens()) {
    core::StateInfo states[17];
    core::Position pos;
    ASSERT_FALSE(pos.set(fen, states[0]));
    for (int ply = 0; ply < 16; ++ply) {
      core::MoveList<core::LEGAL> moves(pos);
      ASSERT_EQ(size_t(core::count_legal(pos)), moves.size()) << pos.fen();
      ++positions;
      if (moves.size() == 0) break;
      pos.do_move(*(moves.begin() + rng.below(moves.size())), states[ply + 1]);
    }
  }
  core::set_piece_move_counter(nullptr);
  EXPECT_GT(positions, 15000);
}

}  // namespace vblitz::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vblitz::simd {
HWY_BEFORE_TEST(MoveCountTest);
HWY_EXPORT_AND_TEST_P(MoveCountTest, TestRandomSetsMatchTheTwin);
HWY_EXPORT_AND_TEST_P(MoveCountTest, TestCountLegalWithTheKernelAlongPlayouts);

// Kernels vector runs the counting kernel only on the targets where it measured faster than the
// twin (a native 64-bit vector popcount: avx3_dl), and switching SimdTarget re-derives that
// choice; the count is the same either way.
TEST(MoveCountDispatch, VectorKernelsCountWithTheKernelOnlyWhereItPays) {
  core::StateInfo state;
  core::Position pos;
  ASSERT_FALSE(pos.set("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", state));
  set_kernels(Kernels::kVector);
  for (const std::string& target : available_targets()) {
    ASSERT_TRUE(set_simd_target(target));
    EXPECT_EQ(use_vector(Kernel::kMoveCount), target == "avx3_dl") << target;
    EXPECT_EQ(core::count_legal(pos), 48) << target;
  }
  set_kernels(Kernels::kScalar);
  EXPECT_FALSE(use_vector(Kernel::kMoveCount));
  set_kernels(Kernels::kAllVector);
  EXPECT_TRUE(use_vector(Kernel::kMoveCount));
  set_kernels(Kernels::kVector);
  EXPECT_TRUE(set_simd_target("best"));
}
}  // namespace vblitz::simd
#endif  // HWY_ONCE
