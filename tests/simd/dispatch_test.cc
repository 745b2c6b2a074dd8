// Kernel selections are per thread: threads that install different selections (simd::Scope) at
// the same time each run their own, and a thread without one runs the process's.
#include "simd/dispatch.h"

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>

#include "core/movegen.h"
#include "core/perft.h"
#include "core/position.h"
#include "simd/serialize.h"

namespace vblitz::test {
namespace {

// Counting serializers: the scalar twin, plus a count of the calls each one received.
std::atomic<uint64_t> calls_a{0}, calls_b{0};

size_t serialize_a(uint64_t t, uint16_t f, uint16_t b, uint16_t* o) {
  calls_a.fetch_add(1, std::memory_order_relaxed);
  return simd::serialize_scalar(t, f, b, o);
}
size_t serialize_b(uint64_t t, uint16_t f, uint16_t b, uint16_t* o) {
  calls_b.fetch_add(1, std::memory_order_relaxed);
  return simd::serialize_scalar(t, f, b, o);
}

uint64_t perft_of(const std::string& fen, int depth) {
  core::StateInfo st;
  core::Position pos;
  EXPECT_FALSE(pos.set(fen, st));
  return core::perft(pos, depth);
}

// Two threads generate moves at once, each with its own serializer installed: each serializer is
// called exactly as often as when its thread runs alone (with one process-wide slot, the last
// one installed would receive every call), and the counts stay exact.
TEST(Dispatch, ThreadedRunsKeepEachThreadsMoveKernels) {
  const std::string fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
  core::MoveKernels a, b;
  a.serialize = &serialize_a;
  b.serialize = &serialize_b;
  uint64_t alone = 0;
  {
    const core::MoveKernelScope scope(a);
    EXPECT_EQ(perft_of(fen, 4), 4085603u);
    alone = calls_a.exchange(0);
  }
  ASSERT_GT(alone, 10000u);
  EXPECT_EQ(calls_b.load(), 0u);
  for (int round = 0; round < 3; ++round) {
    uint64_t count_a = 0, count_b = 0;
    std::thread ta([&] {
      const core::MoveKernelScope scope(a);
      count_a = perft_of(fen, 4);
    });
    std::thread tb([&] {
      const core::MoveKernelScope scope(b);
      count_b = perft_of(fen, 4);
    });
    ta.join();
    tb.join();
    EXPECT_EQ(count_a, 4085603u);
    EXPECT_EQ(count_b, 4085603u);
    EXPECT_EQ(calls_a.exchange(0), alone) << round;
    EXPECT_EQ(calls_b.exchange(0), alone) << round;
  }
  // A threaded perft's workers count with the kernels of the thread that started it.
  {
    const core::MoveKernelScope scope(b);
    core::StateInfo st;
    core::Position pos;
    ASSERT_FALSE(pos.set(fen, st));
    uint64_t total = 0;
    for (const auto& [move, nodes] : core::perft_divide(pos, 4, nullptr, 2)) total += nodes;
    EXPECT_EQ(total, 4085603u);
    EXPECT_EQ(calls_a.exchange(0), 0u);
    EXPECT_GE(calls_b.exchange(0), alone);
  }
  // Without a scope this thread runs the process's kernels again, not a or b.
  EXPECT_NE(core::move_kernels().serialize, &serialize_a);
  EXPECT_EQ(core::move_kernels().serialize, simd::current().move_kernels().serialize);
}

// A selection installed on one thread is that thread's alone: another thread sees the process's,
// and changing the process's leaves an installed one as it was.
TEST(Dispatch, ThreadedScopesAreThreadLocalAndTheProcessSelectionIsSeparate) {
  simd::Dispatch scalar;
  scalar.set_kernels(simd::Kernels::kScalar);
  simd::Dispatch all;
  all.set_kernels(simd::Kernels::kAllVector);
  const std::string lowest = simd::available_targets().back();  // e.g. "emu128" or "sse2"
  ASSERT_TRUE(all.set_target(lowest));
  EXPECT_FALSE(all.set_target("no_such_target"));
  EXPECT_EQ(all.target(), lowest);
  EXPECT_EQ(all.active_target(), lowest);
  std::atomic<bool> installed{false}, checked{false};
  std::string seen_in_a, seen_in_b;
  std::thread ta([&] {
    const simd::Scope scope(scalar);
    installed = true;
    while (!checked) std::this_thread::yield();
    seen_in_a = simd::describe();
    EXPECT_FALSE(simd::use_vector(simd::Kernel::kNetwork));
    EXPECT_EQ(core::move_kernels().serialize, nullptr);
  });
  std::thread tb([&] {
    const simd::Scope scope(all);
    while (!installed) std::this_thread::yield();
    seen_in_b = simd::describe();
    EXPECT_TRUE(simd::use_vector(simd::Kernel::kKillerMatch));
    EXPECT_NE(core::move_kernels().serialize, nullptr);
    EXPECT_EQ(simd::active_target(), lowest);
    checked = true;
  });
  ta.join();
  tb.join();
  EXPECT_EQ(seen_in_a.rfind("kernels scalar (vector:)", 0), 0u) << seen_in_a;
  EXPECT_EQ(seen_in_b.rfind("kernels all-vector", 0), 0u) << seen_in_b;
  EXPECT_NE(seen_in_b.find("SIMD target " + lowest + " (" + lowest + " of"), std::string::npos) << seen_in_b;
  // This thread has no scope: the process's selection, untouched by the two above.
  EXPECT_EQ(simd::kernels(), simd::Kernels::kVector);
  EXPECT_EQ(simd::simd_target(), "best");
  EXPECT_EQ(simd::describe().rfind("kernels vector", 0), 0u);
  {
    const simd::Scope scope(scalar);
    simd::set_kernels(simd::Kernels::kAllVector);  // the process's, not the installed one
    EXPECT_FALSE(simd::use_vector(simd::Kernel::kNetwork));
  }
  EXPECT_TRUE(simd::use_vector(simd::Kernel::kKillerMatch));
  simd::set_kernels(simd::Kernels::kVector);
  EXPECT_FALSE(simd::use_vector(simd::Kernel::kKillerMatch));
}

}  // namespace
}  // namespace vblitz::test
