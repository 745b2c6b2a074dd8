// The thread pool: one OpenMP parallel region per search.
#include "search/threads.h"

#include <malloc.h>
#include <omp.h>
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>

#include "simd/dispatch.h"

namespace vblitz::search {

namespace {

// Starts `count` threads (with the default stack size, as OpenMP's workers get) that all exist
// at once, then ends them; throws std::system_error when the system refuses one.
void probe_threads(int count) {
  std::mutex mutex;
  std::condition_variable all_started;
  bool release = false;
  std::vector<std::thread> threads;
  threads.reserve(size_t(count));
  const auto end_all = [&] {
    {
      std::lock_guard<std::mutex> lock(mutex);
      release = true;
    }
    all_started.notify_all();
    for (std::thread& t : threads) t.join();
  };
  try {
    for (int i = 0; i < count; ++i)
      threads.emplace_back([&] {
        std::unique_lock<std::mutex> lock(mutex);
        all_started.wait(lock, [&] { return release; });
      });
  } catch (const std::system_error& e) {
    const size_t started = threads.size();
    end_all();
    throw std::system_error(e.code(), "the system started " + std::to_string(started) + " of " +
                                          std::to_string(count) + " more threads");
  }
  end_all();
}

}  // namespace

void ThreadPool::resize(int threads) {
  threads = std::clamp(threads, 1, kMaxThreads);
  // The new searchers are built before the list changes: when memory runs out part way, the
  // exception leaves the pool as it was (never a list with empty places).
  std::vector<std::unique_ptr<Searcher>> added;
  for (int i = int(searchers_.size()); i < threads; ++i)
    added.push_back(std::make_unique<Searcher>(tt_, options_));
  if (threads > size()) probe_threads(threads - 1);
  searchers_.reserve(size_t(threads));
  for (auto& s : added) searchers_.push_back(std::move(s));
  const bool shrinking = threads < size();
  searchers_.resize(size_t(threads));
  // glibc keeps freed blocks of this size in its heap: give the searchers' pages back (about
  // 4 MB a searcher), or Threads 1024 then 1 would hold 4 GB for the process's life.
  if (shrinking) malloc_trim(0);
  for (int i = 0; i < threads; ++i) {
    searchers_[size_t(i)]->set_helper_id(first_id_ + i);
    searchers_[size_t(i)]->set_link(link_, i == 0);
  }
}

void ThreadPool::warm_up() const {
  const int n = size();
  if (n > 1) {
#pragma omp parallel num_threads(n)
    {}
  }
}

void ThreadPool::set_cluster(int first, SearchLink* link) {
  first_id_ = first;
  link_ = link;
  resize(size());
}

void ThreadPool::clear() {
  for (auto& s : searchers_) s->clear();
}

void ThreadPool::bind(int id) {
  // The binding of this operating-system thread: OpenMP reuses its workers from search to search.
  thread_local int bound_to = -1;  // -1: every CPU the process started with
  const int want =
      placement_.empty() ? -1 : machine_topology().threads[size_t(placement_[size_t(id)])].os_index;
  if (want != bound_to && bind_this_thread(want) >= 0) bound_to = want;
  cpus_at_start_[size_t(id)] = sched_getcpu();
  searchers_[size_t(id)]->set_numa_node(network_nodes_[size_t(id)]);
  searchers_[size_t(id)]->set_yield_often(id > 0 && size() > usable_cpus());
}

uint64_t ThreadPool::total_nodes() const {
  uint64_t n = 0;
  for (const auto& s : searchers_) n += s->nodes_searched();
  return n;
}

int ThreadPool::depth_completed() const {
  int depth = 0;
  for (const auto& s : searchers_) depth = std::max(depth, s->depth_completed());
  return depth;
}

namespace {
// The move played: the deepest iteration, the better score on a tie; each thread's move, depth
// and score come from one iteration (a cut-short one's proven move and bound included).
bool plays_before(const Result& r, const Result& best) {
  return r.best != core::Move::none() &&
         (r.depth > best.depth || (r.depth == best.depth && r.score > best.score));
}
}  // namespace

Result ThreadPool::published_result() const {
  Result best = searchers_[0]->published();
  for (size_t i = 1; i < searchers_.size(); ++i) {
    const Result r = searchers_[i]->published();
    if (plays_before(r, best)) best = r;
  }
  best.nodes = total_nodes();
  return best;
}

void ThreadPool::forget_last_search() {
  for (auto& s : searchers_) s->forget_last_search();
}

Result ThreadPool::run(const core::Position& pos, const Limits& limits, const std::atomic<bool>& stop,
                       const Searcher::ReportFn& report) {
  tt_.new_search();
  forget_last_search();
  const int n = size();
  if (placed_threads_ != n || placed_binding_ != options_.thread_binding) {
    placement_ = place_threads(machine_topology(), n, options_.thread_binding);
    network_nodes_ = network_nodes(machine_topology(), placement_, n);
    placed_threads_ = n;
    placed_binding_ = options_.thread_binding;
  }
  cpus_at_start_.assign(size_t(n), -1);
  if (n == 1) {
    bind(0);
    core::Position root = pos;
    return searchers_[0]->run(root, limits, stop, report);
  }
  const auto started = limits.start == std::chrono::steady_clock::time_point{}
                           ? std::chrono::steady_clock::now()
                           : limits.start;
  // Helpers search without a clock until the main thread is done (or the user stops).
  Limits helper_limits = limits;
  helper_limits.infinite = true;
  helper_limits.ponder = false;
  std::atomic<uint64_t> pool_nodes{0};     // a node limit counts the nodes of every thread
  std::atomic<int> pool_depth{0};          // the deepest iteration any thread completed
  std::atomic<bool> helpers_stop{false};   // the main thread is done
  std::atomic<bool> depth_reached{false};  // a helper completed the depth limit first
  std::vector<Result> results(static_cast<size_t>(n));
  Searcher::ReportFn main_report;
  core::Move last_line_move = core::Move::none();  // the first move of the last line reported
  if (report)
    main_report = [this, &report, &last_line_move](const Report& r) {
      Report all = r;
      if (all.currmove == core::Move::none()) all.nodes = total_nodes();
      if (!all.pv.empty()) last_line_move = all.pv[0];
      report(all);
    };

  const simd::Dispatch& kernels = simd::current();  // every thread searches with the caller's kernels
#pragma omp parallel num_threads(n)
  {
    const simd::Scope scope(kernels);
    const int id = omp_get_thread_num();
    bind(id);
    core::Position root = pos;  // the game's earlier states are shared, read only
    searchers_[size_t(id)]->share_node_count(&pool_nodes);
    // Helpers run ahead of the main searcher's pool only; in a cluster the other processes'
    // threads have no main searcher to lead and search every depth.
    searchers_[size_t(id)]->share_depth(first_id_ == 0 ? &pool_depth : nullptr);
    if (id == 0) {
      results[0] = searchers_[0]->run(root, limits, stop, main_report, &depth_reached);
      helpers_stop.store(true, std::memory_order_relaxed);
    } else {
      Result& r = results[size_t(id)];
      r = searchers_[size_t(id)]->run(root, helper_limits, helpers_stop, nullptr, &stop);
      // With a depth limit, whichever thread completes it first ends the search.
      if (limits.depth && r.depth >= limits.depth) depth_reached.store(true, std::memory_order_relaxed);
    }
  }

  for (auto& s : searchers_) {
    s->share_node_count(nullptr);
    s->share_depth(nullptr);
  }
  Result best = results[0];
  for (const Result& r : results)
    if (plays_before(r, best)) best = r;
  best.nodes = best.tt_probes = best.tt_hits = 0;
  best.pawn_probes = best.pawn_hits = best.king_probes = best.king_hits = 0;
  for (const Result& r : results) {
    best.nodes += r.nodes;
    best.tt_probes += r.tt_probes;
    best.tt_hits += r.tt_hits;
    best.pawn_probes += r.pawn_probes;
    best.pawn_hits += r.pawn_hits;
    best.king_probes += r.king_probes;
    best.king_hits += r.king_hits;
  }
  // The last line must start with the move played: it may be a helper's, or the main thread may
  // have been stopped before it reported any line (a helper reached the depth limit first).
  if (report && best.best != last_line_move) report(result_line(best, started, tt_.hashfull()));
  return best;
}

}  // namespace vblitz::search
