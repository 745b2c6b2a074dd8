// Child-counting kernel: on every compiled SIMD target, each child's count from the kernel
// against the scalar twin and against count_legal on the position do_move makes, along random
// playouts of the perft suites; perft with the kernel installed against the suites' counts; and
// the Kernels setting choosing perft's child counter.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "tests/simd/child_count_test.cc"
#include "simd/child_count.h"

#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
#include <hwy/tests/hwy_gtest.h>

#include "core/movegen.h"
#include "core/perft.h"
#include "core/prng.h"
#include "simd/child_count-inl.h"
#include "tests/test_support.h"

HWY_BEFORE_NAMESPACE();
namespace vblitz::simd::HWY_NAMESPACE {

// Every batched child of pos: the kernel and the twin against count_legal after do_move. Adds
// the children checked, those in check and those that may castle.
void CheckChildren(core::Position& pos, int& children, int& in_check, int& castling) {
  ASSERT_TRUE(core::batchable(pos)) << pos.fen();
  core::ChildBatch batch;
  core::start_batch(pos, batch);
  for (core::Move m : core::MoveList<core::LEGAL>(pos))
    if (!core::gives_en_passant_square(pos, m)) core::add_child(batch, m);
  core::pad(batch);
  uint64_t vector[core::kChildCapacity], twin[core::kChildCapacity];
  CountChildMoves(batch, vector);
  count_child_moves_scalar(batch, twin);
  for (size_t i = 0; i < batch.size; ++i) {
    const core::Move move{uint16_t(batch.moves[i])};
    core::StateInfo st;
    pos.do_move(move, st);
    const uint64_t legal = uint64_t(core::count_legal(pos));
    in_check += pos.in_check();
    castling += core::child_board(batch, i).castling != 0;
    pos.undo_move(move);
    ASSERT_EQ(twin[i], legal) << "twin after " << pos.to_uci(move) << " in " << pos.fen();
    ASSERT_EQ(vector[i], legal) << "kernel after " << pos.to_uci(move) << " in " << pos.fen();
    ++children;
  }
}

// Random playouts from the suites' standard positions (Chess960 ones take the scalar path).
void TestEveryChildCountMatchesTwinAndCountLegal() {
  core::Prng rng(43);
  int children = 0, in_check = 0, castling = 0;
  for (const std::string& fen : test::suite_fens()) {
    core::StateInfo states[21];
    core::Position pos;
    ASSERT_FALSE(pos.set(fen, states[0]));
    if (pos.is_chess960()) continue;
    for (int playout = 0; playout < 12; ++playout) {
      ASSERT_FALSE(pos.set(fen, states[0]));
      for (int ply = 0; ply < 20; ++ply) {
        CheckChildren(pos, children, in_check, castling);
        if (::testing::Test::HasFatalFailure()) return;
        const core::MoveList<core::LEGAL> moves(pos);
        if (moves.size() == 0) break;
        pos.do_move(*(moves.begin() + rng.below(moves.size())), states[ply + 1]);
      }
    }
  }
  EXPECT_GT(children, 500000);
  EXPECT_GT(in_check, 20000);
  EXPECT_GT(castling, 20000);
}

void TestPerftWithTheKernelMatchesTheSuites() {
  core::set_child_counter(&CountChildMoves);
  uint64_t checked = 0;
  for (const char* file : {"ethereal_standard.epd", "cpw_perft_results.epd", "ethereal_fischer.epd"}) {
    for (const test::PerftCase& c : test::load_perft_suite(test::data_file(file))) {
      core::StateInfo si;
      core::Position pos;
      ASSERT_FALSE(pos.set(c.fen, si));
      for (auto [depth, expected] : c.counts) {
        if (expected > 100000) continue;
        ASSERT_EQ(core::perft(pos, depth), expected) << file << ":" << c.line << " depth " << depth;
        checked += expected;
      }
    }
  }
  set_kernels(kernels());  // back to the selection's own counter
  EXPECT_GT(checked, 10000000u);
}

}  // namespace vblitz::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace vblitz::simd {
HWY_BEFORE_TEST(ChildCountTest);
HWY_EXPORT_AND_TEST_P(ChildCountTest, TestEveryChildCountMatchesTwinAndCountLegal);
HWY_EXPORT_AND_TEST_P(ChildCountTest, TestPerftWithTheKernelMatchesTheSuites);

// Kernels vector counts children with the kernel only where it measured faster than the twin
// (avx3_dl), scalar always with the twin; perft's count is the same either way.
TEST(ChildCountDispatch, KernelsSettingChoosesPerftsChildCounter) {
  core::StateInfo state;
  core::Position pos;
  ASSERT_FALSE(pos.set("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", state));
  set_kernels(Kernels::kVector);
  for (const std::string& target : available_targets()) {
    ASSERT_TRUE(set_simd_target(target));
    EXPECT_EQ(use_vector(Kernel::kChildCount), target == "avx3_dl") << target;
    EXPECT_EQ(core::perft(pos, 3), 97862u) << target;
  }
  set_kernels(Kernels::kScalar);
  EXPECT_FALSE(use_vector(Kernel::kChildCount));
  EXPECT_EQ(core::perft(pos, 3), 97862u);
  set_kernels(Kernels::kAllVector);
  EXPECT_TRUE(use_vector(Kernel::kChildCount));
  EXPECT_EQ(core::perft(pos, 3), 97862u);
  set_kernels(Kernels::kVector);
  EXPECT_TRUE(set_simd_target("best"));
}

// The threaded divide reaches the batch path through perft(): the same counts on two threads.
TEST(ChildCountDispatch, ThreadedDivideCountsWithTheBatchPath) {
  core::StateInfo state;
  core::Position pos;
  ASSERT_FALSE(pos.set("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", state));
  for (Kernels k : {Kernels::kVector, Kernels::kScalar}) {
    set_kernels(k);
    uint64_t sum = 0;
    for (auto [move, nodes] : core::perft_divide(pos, 4, nullptr, 2)) sum += nodes;
    EXPECT_EQ(sum, 4085603u) << kernels_name(k);
  }
  set_kernels(Kernels::kVector);
}
}  // namespace vblitz::simd
#endif  // HWY_ONCE
