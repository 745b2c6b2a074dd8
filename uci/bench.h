// `bench`: the fixed positions of bench_positions.h searched to a fixed depth. The total node
// count of a single-threaded run is the engine's signature: it must not change unless the
// search changes on purpose, and is the same for every kernel choice and SIMD target.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <vector>

#include "cluster/cluster_search.h"
#include "search/search.h"

namespace vblitz::uci {

constexpr int kDefaultBenchDepth = 12;

struct BenchResult {
  int depth = 0, threads = 1, positions = 0;
  uint64_t nodes = 0;  // the signature, when single-threaded
  int64_t time_ms = 0;
  double hash_hit_rate = 0, pawn_hash_hit_rate = 0, king_hash_hit_rate = 0;  // percent
  bool stopped = false;
  std::vector<search::RankShare> processes;  // each process's share, in a cluster run (empty otherwise)
};

// Clears the table, searches every bench position to `depth` with the pool's threads, prints a line per
// position and the totals ("Nodes searched: N", "Nodes/second: M", hash hit rate). When `stop`
// becomes true it ends the current search and prints "info string bench stopped" instead of
// the totals (and returns with `stopped` set). In a cluster run every process calls it and the
// positions are searched by all (cluster/cluster_search.h): the totals are the cluster's, with
// a line per process (its nodes and the table entries it sent, received and stored).
BenchResult run_bench(search::TranspositionTable& tt, search::ClusterSearch& search, int depth,
                      std::ostream& out, const std::atomic<bool>& stop);

}  // namespace vblitz::uci
