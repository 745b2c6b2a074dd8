// The bench command.
#include "uci/bench.h"

#include <chrono>
#include <ostream>

#include "core/game.h"
#include "simd/dispatch.h"
#include "uci/bench_positions.h"
#include "uci/report.h"

namespace vblitz::uci {

BenchResult run_bench(search::TranspositionTable& tt, search::ThreadPool& pool, int depth, std::ostream& out,
                      const std::atomic<bool>& stop) {
  tt.clear();
  pool.clear();
  search::Limits limits;
  limits.depth = depth;
  BenchResult total;
  total.depth = depth;
  total.threads = pool.size();
  uint64_t probes = 0, hits = 0, pawn_probes = 0, pawn_hits = 0, king_probes = 0, king_hits = 0;
  const int count = int(std::size(kBenchPositions));
  out << "info string bench depth " << depth << ", threads " << pool.size() << ", " << simd::describe()
      << '\n';
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < count; ++i) {
    core::Game game;
    game.set_fen(kBenchPositions[i]);
    search::Result r = pool.run(game.position(), limits, stop, nullptr);
    if (stop) {
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
    out << "position " << i + 1 << '/' << count << " bestmove " << game.position().to_uci(r.best) << " score "
        << format_score(r.score) << " nodes " << r.nodes << "  " << kBenchPositions[i] << '\n';
  }
  total.time_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  auto rate = [](uint64_t h, uint64_t p) { return p ? 100.0 * double(h) / double(p) : 0.0; };
  total.hash_hit_rate = rate(hits, probes);
  total.pawn_hash_hit_rate = rate(pawn_hits, pawn_probes);
  total.king_hash_hit_rate = rate(king_hits, king_probes);
  out << "\nHash hit rate: " << total.hash_hit_rate << "%\n"
      << "Pawn hash hit rate: " << total.pawn_hash_hit_rate << "%\n"
      << "King safety hash hit rate: " << total.king_hash_hit_rate << "%\n"
      << "Total time (ms): " << total.time_ms << '\n'
      << "Nodes searched: " << total.nodes << '\n'
      << "Nodes/second: " << total.nodes * 1000 / uint64_t(std::max<int64_t>(total.time_ms, 1)) << std::endl;
  return total;
}

}  // namespace vblitz::uci
