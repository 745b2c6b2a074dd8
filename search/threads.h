// Lazy SMP on OpenMP: every thread searches the same root with its own Searcher (stacks,
// histories, evaluation hashes) and all share the lock-free transposition table. The main
// thread manages time and reports; helpers run until it is done.
#pragma once

#include <memory>
#include <vector>

#include "search/search.h"

namespace vblitz::search {

class ThreadPool {
 public:
  static constexpr int kMaxThreads = 1024;

  ThreadPool(TranspositionTable& tt, const Options& options) : tt_(tt), options_(options) { resize(1); }

  // Sets the number of search threads (1 .. kMaxThreads); only between searches.
  void resize(int threads);
  int size() const { return int(searchers_.size()); }

  // Searches pos with every thread; `stop` ends it from outside. Reports come from the main
  // thread with the node counts of all threads. One thread searches exactly like Searcher::run.
  Result run(const core::Position& pos, const Limits& limits, const std::atomic<bool>& stop,
             const Searcher::ReportFn& report);
  void clear();

 private:
  uint64_t total_nodes() const;

  TranspositionTable& tt_;
  const Options& options_;
  std::vector<std::unique_ptr<Searcher>> searchers_;
};

}  // namespace vblitz::search
