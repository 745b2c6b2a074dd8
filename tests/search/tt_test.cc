// Transposition table: store/probe, replacement by age and draft, both layouts, mate scores,
// huge pages.
#include "search/tt.h"

#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cstring>
#include <fstream>
#include <string>

#include "core/prng.h"
#include "search/score.h"

namespace vblitz::search {
namespace {

using core::Move;
using core::SQ_E2;
using core::SQ_E4;

class TtLayouts : public ::testing::TestWithParam<TranspositionTable::Layout> {};

TEST_P(TtLayouts, StoreThenProbeReturnsTheEntry) {
  TranspositionTable tt;
  tt.set_layout(GetParam());
  core::Prng rng(1);
  std::vector<core::Key> keys(1000);
  for (core::Key& k : keys) k = rng.next();
  for (size_t i = 0; i < keys.size(); ++i)
    tt.store(keys[i], Move(SQ_E2, SQ_E4), int(i) - 500, int(i % 30), simd::tt::BOUND_EXACT);
  int found = 0;
  for (size_t i = 0; i < keys.size(); ++i) {
    TTData d;
    if (!tt.probe(keys[i], d)) continue;
    ++found;
    EXPECT_EQ(d.score, int(i) - 500);
    EXPECT_EQ(d.depth, int(i % 30));
    EXPECT_EQ(d.move, Move(SQ_E2, SQ_E4));
    EXPECT_EQ(d.bound, simd::tt::BOUND_EXACT);
  }
  EXPECT_EQ(found, 1000);  // 16 MB holds a thousand entries without collisions
  TTData d;
  EXPECT_FALSE(tt.probe(rng.next(), d));
  tt.clear();
  EXPECT_FALSE(tt.probe(keys[0], d));
}

// Entries from other processes (cluster runs) never overwrite the same position searched at
// least as deep here; otherwise they are stored as this process's own.
TEST_P(TtLayouts, SharedEntriesDoNotOverwriteDeeperOnes) {
  TranspositionTable tt;
  tt.set_layout(GetParam());
  const core::Key key = 0x9E3779B97F4A7C15ull;
  EXPECT_TRUE(tt.store_shared(key, Move(SQ_E2, SQ_E4), 30, 9, simd::tt::BOUND_LOWER));
  TTData d;
  ASSERT_TRUE(tt.probe(key, d));
  EXPECT_EQ(d.depth, 9);
  tt.store(key, Move(SQ_E2, SQ_E4), 50, 12, simd::tt::BOUND_EXACT);
  EXPECT_FALSE(tt.store_shared(key, Move(SQ_E2, SQ_E4), -70, 12, simd::tt::BOUND_UPPER));
  ASSERT_TRUE(tt.probe(key, d));
  EXPECT_EQ(d.score, 50);
  EXPECT_TRUE(tt.store_shared(key, Move(SQ_E2, SQ_E4), -70, 13, simd::tt::BOUND_UPPER));
  ASSERT_TRUE(tt.probe(key, d));
  EXPECT_EQ(d.score, -70);
  EXPECT_EQ(d.depth, 13);
}

TEST_P(TtLayouts, OldEntriesAreReplacedBeforeDeeperCurrentOnes) {
  TranspositionTable tt;
  ASSERT_TRUE(tt.resize(1));
  tt.set_layout(GetParam());
  // Fill the table with deep entries of one search, then store many shallow ones in the next:
  // the shallow ones must find room by evicting old entries, not fail to be stored.
  core::Prng rng(2);
  std::vector<core::Key> old_keys(200000), new_keys(20000);
  for (core::Key& k : old_keys) tt.store(k = rng.next(), Move::none(), 0, 40, simd::tt::BOUND_EXACT);
  tt.new_search();
  for (core::Key& k : new_keys) tt.store(k = rng.next(), Move::none(), 0, 1, simd::tt::BOUND_UPPER);
  int kept = 0;
  for (core::Key k : new_keys) {
    TTData d;
    kept += tt.probe(k, d);
  }
  EXPECT_GT(kept, 19000);
  EXPECT_GT(tt.hashfull(), 0);
}

INSTANTIATE_TEST_SUITE_P(Layouts, TtLayouts,
                         ::testing::Values(TranspositionTable::Layout::kBucket,
                                           TranspositionTable::Layout::kCray));

TEST(TtSize, AnySizeInMegabytesWorks) {
  TranspositionTable tt;
  for (size_t mb : {1, 3, 7, 100}) {
    ASSERT_TRUE(tt.resize(mb));
    EXPECT_EQ(tt.megabytes(), mb);
    tt.store(0xFFFFFFFFFFFFFFFFULL, Move::none(), 7, 3, simd::tt::BOUND_LOWER);  // the last bucket
    TTData d;
    ASSERT_TRUE(tt.probe(0xFFFFFFFFFFFFFFFFULL, d));
    EXPECT_EQ(d.score, 7);
  }
}

// Kilobytes of this process's memory that the kernel maps with transparent huge pages (-1 if
// it cannot tell).
long anon_huge_page_kb() {
  std::ifstream smaps("/proc/self/smaps_rollup");
  for (std::string line; std::getline(smaps, line);)
    if (line.rfind("AnonHugePages:", 0) == 0) return std::stol(line.substr(14));
  return -1;
}

// Whether the kernel gives this process huge pages when asked: a fresh 6 MB mapping (which
// holds at least two whole aligned 2 MB pages), madvise(MADV_HUGEPAGE), touched. False where
// they are off, or where madvise is accepted and ignored (an emulator, for example).
bool kernel_grants_huge_pages() {
  constexpr size_t kSpan = size_t(6) << 20;
  const long before = anon_huge_page_kb();
  void* probe = mmap(nullptr, kSpan, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (probe == MAP_FAILED) return false;
  bool granted = false;
  if (before >= 0 && madvise(probe, kSpan, MADV_HUGEPAGE) == 0) {
    std::memset(probe, 1, kSpan);
    granted = anon_huge_page_kb() - before >= 2048;
  }
  munmap(probe, kSpan);
  return granted;
}

TEST(TtSize, TheTableLivesOnHugePagesWhereTheKernelOffersThem) {
  if (!kernel_grants_huge_pages()) GTEST_SKIP() << "the kernel gives no transparent huge pages here";
  const long before = anon_huge_page_kb();
  TranspositionTable tt;
  ASSERT_TRUE(tt.resize(64));  // clear() touches every page
  // Most of the 64 MB (the kernel may find too few free 2 MB frames for all of it).
  EXPECT_GE(anon_huge_page_kb() - before, 32 * 1024);
}

TEST(Score, MateScoresAreStoredRelativeToTheNode) {
  // Mate in 3 plies from a node at ply 5 is mate in 8 plies from the root.
  int at_root = mate_in(8);
  int stored = score_to_tt(at_root, 5);
  EXPECT_EQ(stored, mate_in(3));
  EXPECT_EQ(score_from_tt(stored, 5), at_root);
  EXPECT_EQ(score_from_tt(stored, 2), mate_in(5));  // found again from a node at ply 2
  EXPECT_EQ(score_to_tt(mated_in(6), 4), mated_in(2));
  EXPECT_EQ(score_to_tt(123, 9), 123);
  EXPECT_EQ(mate_distance(mate_in(5)), 3);
  EXPECT_EQ(mate_distance(mated_in(4)), -2);
}

}  // namespace
}  // namespace vblitz::search
