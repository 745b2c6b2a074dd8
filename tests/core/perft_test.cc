// Perft against the published suites: exact leaf counts are the independent truth for the
// move generator. The default suite stops at small node counts; *Slow* tests go deeper.
#include "core/perft.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>

#include "tests/test_support.h"

namespace vblitz::test {
namespace {

using core::Position;
using core::StateInfo;

// Checks every count of every position up to `max_nodes` leaves; returns the leaves checked.
uint64_t check_suite(const std::string& path, uint64_t max_nodes, int max_depth = 99) {
  std::vector<PerftCase> cases = load_perft_suite(path);
  EXPECT_FALSE(cases.empty()) << "no perft cases in " << path;
  uint64_t checked = 0;
  for (const PerftCase& c : cases) {
    StateInfo si;
    Position pos;
    if (auto err = pos.set(c.fen, si)) {
      ADD_FAILURE() << path << ":" << c.line << " " << *err;
      continue;
    }
    for (auto [depth, expected] : c.counts) {
      if (expected > max_nodes || depth > max_depth) continue;
      EXPECT_EQ(core::perft(pos, depth), expected)
          << path << ":" << c.line << " depth " << depth << " " << c.fen;
      checked += expected;
    }
  }
  return checked;
}

// Node budget for the slow tests: VBLITZ_PERFT_MAX_NODES overrides the default; anything but
// a positive whole number fails the test (it would otherwise check nothing and pass).
uint64_t slow_budget(uint64_t fallback) {
  const char* env = std::getenv("VBLITZ_PERFT_MAX_NODES");
  if (!env) return fallback;
  char* end = nullptr;
  const uint64_t budget = std::strtoull(env, &end, 10);
  if (end == env || *end != '\0' || budget == 0) {
    ADD_FAILURE() << "VBLITZ_PERFT_MAX_NODES='" << env << "' is not a positive number";
    return fallback;
  }
  return budget;
}

TEST(Perft, StartPositionShallow) {
  StateInfo si;
  Position pos;
  ASSERT_FALSE(pos.set(Position::kStartFen, si));
  EXPECT_EQ(core::perft(pos, 0), 1u);
  EXPECT_EQ(core::perft(pos, 1), 20u);
  EXPECT_EQ(core::perft(pos, 3), 8902u);
  uint64_t sum = 0;
  for (auto [move, nodes] : core::perft_divide(pos, 3)) sum += nodes;
  EXPECT_EQ(sum, 8902u);
}

// perft_divide on several threads: the same moves in the same order with the same counts as on
// one thread, on every suite position (depth 3, and the published count where it is small), and
// a stop ends it with a prefix of finished moves.
TEST(Perft, ThreadedDivideEqualsSingleThreaded) {
  int positions = 0;
  for (const std::string& path : {data_file("ethereal_standard.epd"), data_file("ethereal_fischer.epd")}) {
    for (const PerftCase& c : load_perft_suite(path)) {
      if (positions >= 150) break;
      StateInfo si;
      Position pos;
      ASSERT_FALSE(pos.set(c.fen, si));
      const auto single = core::perft_divide(pos, 3);
      for (int threads : {2, 3, 7}) ASSERT_EQ(core::perft_divide(pos, 3, nullptr, threads), single) << c.fen;
      for (auto [depth, expected] : c.counts) {
        if (depth < 3 || expected > 3'000'000) continue;
        uint64_t sum = 0;
        for (auto [move, nodes] : core::perft_divide(pos, depth, nullptr, 2)) sum += nodes;
        EXPECT_EQ(sum, expected) << c.fen << " depth " << depth;
      }
      ++positions;
    }
  }
  EXPECT_EQ(positions, 150);

  StateInfo si;
  Position pos;
  ASSERT_FALSE(pos.set(Position::kStartFen, si));
  const std::atomic<bool> stop{true};
  EXPECT_TRUE(core::perft_divide(pos, 7, &stop, 2).empty());
}

// The shares of a cluster perft (one per process) add up, move by move, to the whole divide, at
// every depth (part 0 alone counts the shallow ones) and with threads.
TEST(Perft, SharesAddUpToTheWholeDivide) {
  int positions = 0;
  for (const PerftCase& c : load_perft_suite(data_file("ethereal_standard.epd"))) {
    if (positions++ >= 40) break;
    StateInfo si;
    Position pos;
    ASSERT_FALSE(pos.set(c.fen, si));
    for (int depth : {1, 2, 3, 4}) {
      const auto whole = core::perft_divide(pos, depth);
      for (int parts : {2, 3}) {
        std::vector<std::pair<core::Move, uint64_t>> sum = whole;
        for (auto& entry : sum) entry.second = 0;
        for (int part = 0; part < parts; ++part) {
          const auto share = core::perft_divide(pos, depth, nullptr, 1 + part % 2, {part, parts});
          ASSERT_EQ(share.size(), whole.size()) << c.fen;
          for (size_t i = 0; i < share.size(); ++i) {
            ASSERT_EQ(share[i].first, whole[i].first);
            sum[i].second += share[i].second;
          }
        }
        EXPECT_EQ(sum, whole) << c.fen << " depth " << depth << " parts " << parts;
      }
    }
  }
}

TEST(Perft, StandardSuite) { EXPECT_GT(check_suite(data_file("ethereal_standard.epd"), 5'000'000), 0u); }
TEST(Perft, CpwSuite) { EXPECT_GT(check_suite(data_file("cpw_perft_results.epd"), 5'000'000), 0u); }
TEST(Perft, Chess960Suite) { EXPECT_GT(check_suite(data_file("ethereal_fischer.epd"), 2'000'000), 0u); }

TEST(PerftSlow, StandardSuiteDeep) {
  EXPECT_GT(check_suite(data_file("ethereal_standard.epd"), slow_budget(UINT64_MAX)), 0u);
}
TEST(PerftSlow, CpwSuiteDeep) {
  EXPECT_GT(check_suite(data_file("cpw_perft_results.epd"), slow_budget(1'000'000'000)), 0u);
}
TEST(PerftSlow, Chess960SuiteDeep) {
  EXPECT_GT(check_suite(data_file("ethereal_fischer.epd"), slow_budget(20'000'000)), 0u);
}
TEST(PerftSlow, MarcelSuite) {
  EXPECT_GT(check_suite(data_file("marcel_perft.epd"), slow_budget(20'000'000)), 0u);
}

}  // namespace
}  // namespace vblitz::test
