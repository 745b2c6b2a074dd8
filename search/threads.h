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

  // Sets the number of search threads (1 .. kMaxThreads); only between searches. When memory
  // or the system's thread limit would not allow that many (std::bad_alloc, or std::system_error
  // when a test start of the threads is refused), the pool stays as it was.
  void resize(int threads);
  // Starts OpenMP's team of size() threads on the calling thread (OpenMP keeps one team per
  // starting thread): call it on the thread that runs the searches, after resize(), so that a
  // search never has to create threads (libgomp ends the process when it cannot).
  void warm_up() const;
  int size() const { return int(searchers_.size()); }

  // Searches pos with every thread; `stop` ends it from outside. Reports come from the main
  // thread with the node counts of all threads; when the move played is another thread's, a
  // last report gives its line, so the last line a GUI sees starts with the move played. One
  // thread searches exactly like Searcher::run.
  Result run(const core::Position& pos, const Limits& limits, const std::atomic<bool>& stop,
             const Searcher::ReportFn& report);
  void clear();
  // Nodes of every thread, as each published them last (safe during a search).
  uint64_t total_nodes() const;
  // The deepest iteration any thread has completed in the current or last search (0 from the
  // start of a search until one completes, even on threads that start late).
  int depth_completed() const;
  // The result run() would return if the search were stopped now, from what each thread has
  // published (Searcher::published), chosen as run() chooses; nodes are every thread's so far.
  // Safe during a search: `stop` answers with it without waiting for busy threads.
  Result published_result() const;
  // Forgets every thread's last completed depth and published result (run() does it too): the
  // UCI thread calls it before it hands a search to the search thread, so a `stop` or the
  // clock's guard that comes before the threads start never answers with the last search's move.
  void forget_last_search();
  // For a cluster run (cluster/cluster_search.h): the threads' helper ids start at `first` (so
  // the processes' trees differ), and their searches use `link` (nullptr: none). Only between
  // searches; resize() keeps both.
  void set_cluster(int first, SearchLink* link);
  // The CPU each thread ran on when the last search started (sched_getcpu), after binding:
  // with Options::thread_binding kCores, each thread's placed hardware thread.
  const std::vector<int>& cpus_at_start() const { return cpus_at_start_; }
  // The network each thread's searcher read in the last search (its NUMA node's copy where the
  // threads are bound on a machine of several nodes, else the shared one).
  const eval::Network* network_of(int id) const { return searchers_[size_t(id)]->network(); }

 private:
  // Binds the calling thread, the pool's thread `id`, as Options::thread_binding places it (a
  // thread already so bound is left alone) and records where it runs.
  void bind(int id);
  int first_id_ = 0;
  SearchLink* link_ = nullptr;

  TranspositionTable& tt_;
  const Options& options_;
  std::vector<std::unique_ptr<Searcher>> searchers_;
  std::vector<int> placement_;      // for placed_threads_ threads under placed_binding_
  std::vector<int> network_nodes_;  // the NUMA node of each thread's network copy (-1: shared)
  int placed_threads_ = 0;
  Binding placed_binding_ = Binding::kNone;
  std::vector<int> cpus_at_start_;
};

}  // namespace vblitz::search
