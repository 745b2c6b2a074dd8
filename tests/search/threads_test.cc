// Lazy SMP: several threads find the same mate, stop promptly, and keep a node limit together.
// Also run under ThreadSanitizer (preset `tsan`, label `threads`).
#include "search/threads.h"

#include <gtest/gtest.h>
#include <omp.h>
#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <utility>
#include <vector>

#include "core/game.h"
#include "core/movegen.h"
#include "search/search_link.h"

namespace vblitz::search {
namespace {

// The depth schedule: the main searcher searches every depth; a helper runs one to four plies
// ahead of the pool's deepest completed iteration (helper 1 three), never goes back, never
// passes the depth limit, and among any four helpers in a row each lead appears once.
TEST(Threads, HelpersRunAheadOfThePool) {
  for (int depth = 1; depth <= 64; ++depth)
    for (int pool : {0, depth - 1, depth + 5}) EXPECT_EQ(helper_next_depth(0, depth, pool, 64), depth);
  EXPECT_EQ(helper_next_depth(1, 1, 0, 64), 3);
  EXPECT_EQ(helper_next_depth(1, 11, 10, 64), 13);
  EXPECT_EQ(helper_next_depth(1, 14, 10, 64), 14);  // already further ahead: no iteration again
  EXPECT_EQ(helper_next_depth(1, 11, 10, 12), 12);  // the limit
  for (int first = 1; first <= 60; ++first) {
    std::vector<int> leads;
    for (int id = first; id < first + 4; ++id) leads.push_back(helper_next_depth(id, 11, 10, 64) - 10);
    std::sort(leads.begin(), leads.end());
    EXPECT_EQ(leads, (std::vector<int>{1, 2, 3, 4})) << "helpers " << first << "-" << first + 3;
  }
  for (int id = 1; id <= 64; ++id)
    for (int depth = 1; depth <= 30; ++depth)
      for (int pool = 0; pool <= 30; ++pool) {
        const int next = helper_next_depth(id, depth, pool, 20);
        EXPECT_GE(next, std::min(depth, 20));
        EXPECT_LE(next, std::max(depth, 20));
      }
}

// A helper never jumps past the depth limit: `go depth N` ends when any thread completes N.
TEST(Threads, EveryHelperCompletesTheDepthLimit) {
  core::Game game;
  std::atomic<bool> stop{false};
  for (int id = 0; id <= 20; ++id) {
    for (int depth : {5, 6, 7}) {
      TranspositionTable tt;
      Options options;
      Searcher searcher(tt, options);
      searcher.set_helper_id(id);
      std::atomic<int> pool_depth{0};  // alone in its pool: it follows its own completed depths
      searcher.share_depth(&pool_depth);
      Limits limits;
      limits.depth = depth;
      const Result r = searcher.run(game.position(), limits, stop, nullptr);
      EXPECT_EQ(r.depth, depth) << "helper " << id;
      EXPECT_NE(r.best, core::Move::none()) << "helper " << id;
    }
  }
}

TEST(Threads, SeveralThreadsFindTheMate) {
  TranspositionTable tt;
  Options options;
  ThreadPool pool(tt, options);
  core::Game game;
  ASSERT_FALSE(game.set_fen("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1"));
  std::atomic<bool> stop{false};
  Limits limits;
  limits.depth = 8;
  for (int threads : {2, 3, 1, 4}) {
    pool.resize(threads);
    EXPECT_EQ(pool.size(), threads);
    tt.clear();
    Result r = pool.run(game.position(), limits, stop, nullptr);
    EXPECT_EQ(game.position().to_uci(r.best), "f6a6") << threads;
    EXPECT_EQ(r.score, mate_in(5)) << threads;
  }
}

// ThreadBinding cores puts each thread on its placed hardware thread (the kernel reports the CPU
// it runs on); none gives every thread the whole machine back.
TEST(Threads, CoresBindingPutsEachThreadOnItsPlacedHardwareThread) {
  const auto cpus_allowed = [] {
    cpu_set_t set;
    CPU_ZERO(&set);
    pthread_getaffinity_np(pthread_self(), sizeof set, &set);
    return CPU_COUNT(&set);
  };
  const int all = cpus_allowed();
  TranspositionTable tt;
  Options options;
  ThreadPool pool(tt, options);
  core::Game game;
  std::atomic<bool> stop{false};
  Limits limits;
  limits.depth = 4;
  const Topology& machine = machine_topology();
  options.thread_binding = Binding::kCores;
  for (int threads : {1, 2, 4}) {
    pool.resize(threads);
    pool.run(game.position(), limits, stop, nullptr);
    const std::vector<int> placed = place_threads(machine, threads, Binding::kCores);
    ASSERT_EQ(int(pool.cpus_at_start().size()), threads);
    const std::vector<int> nodes = network_nodes(machine, placed, threads);
    for (int i = 0; i < threads; ++i) {
      EXPECT_EQ(pool.cpus_at_start()[size_t(i)], machine.threads[size_t(placed[size_t(i)])].os_index)
          << "thread " << i << " of " << threads;
      // Each thread read its node's network copy (the shared network on a one-node machine).
      EXPECT_EQ(pool.network_of(i), eval::network_on_node(eval::active_network(), nodes[size_t(i)]).get())
          << i;
    }
  }
  options.thread_binding = Binding::kNone;
  for (int threads : {4, 1}) {
    pool.resize(threads);
    pool.run(game.position(), limits, stop, nullptr);
    std::vector<int> allowed(static_cast<size_t>(threads));
#pragma omp parallel num_threads(threads)
    allowed[size_t(omp_get_thread_num())] = cpus_allowed();
    for (int n : allowed) EXPECT_EQ(n, all) << threads << " threads";
  }
}

// Inside searches on several threads, in both evaluations, every incrementally kept score
// equals a fresh computation: the network's accumulators a refresh, the classic evaluation's
// cached score (evaluation, pawn and king hashes) a computation without them. The comparisons
// are assertions, compiled into the debug preset's build (CI runs it); elsewhere this checks
// that the searches end with a legal move.
TEST(Threads, IncrementalEvaluationEqualsRefreshInsideSearches) {
  const char* const fens[] = {
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",  // castling, en passant
      "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",                               // promotions
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",                             // endgame, en passant
  };
  for (const EvalMode mode : {EvalMode::kNetwork, EvalMode::kClassic}) {
    TranspositionTable tt;
    Options options;
    options.eval_mode = mode;
    ThreadPool pool(tt, options);
    pool.resize(2);
    for (const char* fen : fens) {
      core::Game game;
      ASSERT_FALSE(game.set_fen(fen));
      std::atomic<bool> stop{false};
      Limits limits;
      limits.nodes = 150000;
      const Result r = pool.run(game.position(), limits, stop, nullptr);
      const core::MoveList<core::LEGAL> legal(game.position());
      EXPECT_NE(std::find(legal.begin(), legal.end(), r.best), legal.end()) << fen;
    }
  }
}

// `go nodes N` searches at least N and at most N plus one check interval (1024 nodes) per
// thread in all: the threads count together. (Before: each helper had its own share on top
// of the main thread's whole limit, about 149,000 nodes on two threads for 100,000.)
TEST(Threads, NodeLimitHoldsForThePoolAndCountsEveryThread) {
  TranspositionTable tt;
  tt.resize(16);
  Options options;
  ThreadPool pool(tt, options);
  std::atomic<bool> stop{false};
  Limits limits;
  limits.nodes = 100000;
  for (int threads : {1, 2, 8}) {
    pool.resize(threads);
    for (const char* fen :
         {core::Position::kStartFen, "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8"}) {
      core::Game game;
      ASSERT_FALSE(game.set_fen(fen));
      tt.clear();
      pool.clear();
      const Result r = pool.run(game.position(), limits, stop, nullptr);
      EXPECT_GE(r.nodes, limits.nodes) << threads << " threads";
      EXPECT_LE(r.nodes, limits.nodes + 1024 * uint64_t(threads)) << threads << " threads";
      EXPECT_NE(r.best, core::Move::none());
    }
  }
}

// Both table layouts under several threads (ThreadSanitizer runs this with label `threads`:
// the Cray layout's strided slots are read with atomic loads, as the bucket's are).
TEST(Threads, BothTableLayoutsSearchTogether) {
  for (auto layout : {TranspositionTable::Layout::kBucket, TranspositionTable::Layout::kCray}) {
    TranspositionTable tt;
    tt.resize(1);  // small: threads meet in the same slots
    tt.set_layout(layout);
    Options options;
    ThreadPool pool(tt, options);
    pool.resize(3);
    core::Game game;
    ASSERT_FALSE(game.set_fen("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1"));
    std::atomic<bool> stop{false};
    Limits limits;
    limits.depth = 9;
    const Result r = pool.run(game.position(), limits, stop, nullptr);
    EXPECT_EQ(game.position().to_uci(r.best), "f6a6");
    EXPECT_EQ(r.score, mate_in(5));
  }
}

// What the main thread's time check sees of the pool: the cluster search ends a `go depth N`
// once pool.depth_completed() reaches N, so a new search must not show the last one's depth on
// threads that have not started yet (eight threads on a small machine start late). Each search
// goes one ply less deep than the one before, so whatever its threads complete stays below the
// last search's depth, however the main thread's first poll (after 1024 nodes) is delayed: on a
// loaded machine the helpers once completed depth 16 before a starved main thread polled.
class FirstPollRecorder : public SearchLink {
 public:
  explicit FirstPollRecorder(const ThreadPool& pool) : pool_(pool) {}
  void poll() override {
    if (first_ < 0) first_ = pool_.depth_completed();
  }
  void offer(const SharedEntry&) override {}
  int take_first() { return std::exchange(first_, -1); }

 private:
  const ThreadPool& pool_;
  int first_ = -1;
};

TEST(Threads, ANewSearchShowsNoDepthOfTheLastOne) {
  TranspositionTable tt;
  Options options;
  ThreadPool pool(tt, options);
  FirstPollRecorder recorder(pool);
  pool.set_cluster(0, &recorder);
  pool.resize(8);
  core::Game game;
  ASSERT_FALSE(game.set_fen("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8"));
  std::atomic<bool> stop{false};
  Limits limits;
  for (int depth = 16; depth >= 11; --depth) {
    limits.depth = depth;
    tt.clear();
    const Result r = pool.run(game.position(), limits, stop, nullptr);
    ASSERT_GE(pool.depth_completed(), depth);
    EXPECT_NE(r.best, core::Move::none());
    const int first = recorder.take_first();
    // No thread completes more than this search's depth, less than the last search's.
    if (depth < 16) {
      EXPECT_LE(first, depth) << "after a search to depth " << depth + 1;
    }
  }
}

// The last line a GUI reads before `bestmove` must start with the move played, also when the
// vote picks a helper's move (fastchess warned "Bestmove does not match beginning of last PV"
// about 3 times a game on two threads in the soak).
TEST(Threads, TheLastReportedLineStartsWithTheMovePlayed) {
  TranspositionTable tt;
  Options options;
  ThreadPool pool(tt, options);
  pool.resize(4);
  std::atomic<bool> stop{false};
  Limits limits;
  int searches = 0;
  for (const char* fen :
       {core::Position::kStartFen, "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "2r3k1/pp3ppp/2n1b3/q1bpP3/3N4/P1P2Q2/1P1B2PP/R4R1K w - - 0 20",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"}) {
    core::Game game;
    ASSERT_FALSE(game.set_fen(fen));
    for (int depth = 4; depth <= 10; ++depth) {
      limits.depth = depth;
      std::vector<core::Move> last_pv;
      const Result r = pool.run(game.position(), limits, stop, [&last_pv](const Report& report) {
        if (!report.pv.empty()) last_pv = report.pv;
      });
      ASSERT_FALSE(last_pv.empty()) << fen << " depth " << depth;
      EXPECT_EQ(game.position().to_uci(last_pv[0]), game.position().to_uci(r.best))
          << fen << " depth " << depth;
      ++searches;
    }
  }
  EXPECT_EQ(searches, 42);
}

// `stop` is answered from what the threads publish, without waiting for them (uci/uci.cc): the
// published result must be the one run() returns, after searches that end by themselves and
// after searches stopped part way through an iteration.
TEST(Threads, ThePublishedResultIsTheOneRunReturns) {
  TranspositionTable tt;
  Options options;
  ThreadPool pool(tt, options);
  int compared = 0;
  for (int threads : {1, 4}) {
    pool.resize(threads);
    for (const char* fen :
         {core::Position::kStartFen, "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8",
          "2r3k1/pp3ppp/2n1b3/q1bpP3/3N4/P1P2Q2/1P1B2PP/R4R1K w - - 0 20",
          "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"}) {
      core::Game game;
      ASSERT_FALSE(game.set_fen(fen));
      for (int depth = 3; depth <= 9; depth += 3) {
        std::atomic<bool> stop{false};
        Limits limits;
        limits.depth = depth;
        Result r = pool.run(game.position(), limits, stop, nullptr);
        Result p = pool.published_result();
        EXPECT_EQ(p.best, r.best) << fen << " depth " << depth;
        EXPECT_EQ(p.ponder, r.ponder) << fen << " depth " << depth;
        EXPECT_EQ(p.depth, r.depth) << fen << " depth " << depth;
        EXPECT_EQ(p.score, r.score) << fen << " depth " << depth;
        // Stopped part way: the move, depth and score of a cut-short iteration count too.
        limits = Limits();
        limits.infinite = true;
        stop = false;
        std::thread stopper([&stop, depth] {
          std::this_thread::sleep_for(std::chrono::milliseconds(5 * depth));
          stop = true;
        });
        r = pool.run(game.position(), limits, stop, nullptr);
        stopper.join();
        p = pool.published_result();
        EXPECT_EQ(p.best, r.best) << fen << " stopped";
        EXPECT_EQ(p.depth, r.depth) << fen << " stopped";
        EXPECT_EQ(p.score, r.score) << fen << " stopped";
        EXPECT_TRUE(core::MoveList<core::LEGAL>(game.position()).contains(p.best)) << fen;
        compared += 2;
      }
    }
  }
  EXPECT_EQ(compared, 48);
}

TEST(Threads, StopEndsEveryThreadQuickly) {
  TranspositionTable tt;
  Options options;
  ThreadPool pool(tt, options);
  pool.resize(2);
  core::Game game;
  std::atomic<bool> stop{false};
  Limits limits;
  limits.infinite = true;
  auto start = std::chrono::steady_clock::now();
  std::thread stopper([&stop] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    stop = true;
  });
  Result r = pool.run(game.position(), limits, stop, nullptr);
  stopper.join();
  auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(ms, 1000);
  EXPECT_NE(r.best, core::Move::none());
}

}  // namespace
}  // namespace vblitz::search
