// The bench command.
#include "uci/bench.h"

#include <chrono>
#include <ostream>

#include "cluster/cluster.h"
#include "core/game.h"
#include "simd/dispatch.h"
#include "uci/bench_positions.h"
#include "uci/report.h"

namespace vblitz::uci {

BenchResult run_bench(search::TranspositionTable& tt, search::ClusterSearch& search, int depth,
                      std::ostream& out, const std::atomic<bool>& stop) {
  search::ThreadPool& pool = search.pool();
  tt.clear();
  pool.clear();
  search::Limits limits;
  limits.depth = depth;
  BenchResult total;
  total.depth = depth;
  total.threads = pool.size();
  uint64_t probes = 0, hits = 0, pawn_probes = 0, pawn_hits = 0, king_probes = 0, king_hits = 0;
  const int count = int(std::size(kBenchPositions));
  const int processes = cluster::ranks();
  out << "info string bench depth " << depth << ", threads " << pool.size()
      << (processes > 1 ? ", processes " + std::to_string(processes) : "") << ", " << simd::describe()
      << '\n';
  if (processes > 1) total.processes.assign(size_t(processes), search::RankShare());
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < count; ++i) {
    core::Game game;
    game.set_fen(kBenchPositions[i]);
    search::Result r = search.run(game.position(), limits, stop, nullptr);
    if (search.stopped()) {
      out << "info string bench stopped" << std::endl;
      total.stopped = true;
      return total;
    }
    total.nodes += r.nodes;
    ++total.positions;
    probes += r.tt_probes;
    hits += r.tt_hits;
    pawn_probes += r.pawn_probes;
    pawn_hits += r.pawn_hits;
    king_probes += r.king_probes;
    king_hits += r.king_hits;
    for (size_t p = 0; p < total.processes.size(); ++p) {
      search::RankShare& sum = total.processes[p];
      const search::RankShare& add = search.shares()[p];
      sum.nodes += add.nodes, sum.sent += add.sent, sum.received += add.received, sum.stored += add.stored;
      sum.rounds += add.rounds;
    }
    out << "position " << i + 1 << '/' << count << " bestmove " << game.position().to_uci(r.best) << " score "
        << format_score(r.score) << " nodes " << r.nodes << "  " << kBenchPositions[i] << '\n';
  }
  total.time_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  auto rate = [](uint64_t h, uint64_t p) { return p ? 100.0 * double(h) / double(p) : 0.0; };
  total.hash_hit_rate = rate(hits, probes);
  total.pawn_hash_hit_rate = rate(pawn_hits, pawn_probes);
  total.king_hash_hit_rate = rate(king_hits, king_probes);
  for (size_t p = 0; p < total.processes.size(); ++p) {
    const search::RankShare& share = total.processes[p];
    out << (p ? "" : "\n") << "Process " << p << ": nodes " << share.nodes << " ("
        << 100 * share.nodes / std::max<uint64_t>(total.nodes, 1) << "%), entries sent " << share.sent
        << ", received " << share.received << ", stored " << share.stored << ", rounds " << share.rounds
        << '\n';
  }
  out << "\nHash hit rate: " << total.hash_hit_rate << "%\n"
      << "Pawn hash hit rate: " << total.pawn_hash_hit_rate << "%\n"
      << "King safety hash hit rate: " << total.king_hash_hit_rate << "%\n"
      << "Total time (ms): " << total.time_ms << '\n'
      << "Nodes searched: " << total.nodes << '\n'
      << "Nodes/second: " << total.nodes * 1000 / uint64_t(std::max<int64_t>(total.time_ms, 1)) << std::endl;
  return total;
}

}  // namespace vblitz::uci
