// The sweep command.
#include "app/sweep.h"

#include <algorithm>
#include <iomanip>
#include <optional>
#include <ostream>
#include <sstream>
#include <stdexcept>

#include "app/speedtest.h"
#include "search/threads.h"
#include "simd/dispatch.h"
#include "uci/bench.h"

namespace vblitz::app {

uint64_t SweepRow::median_nps() const {
  if (nps.empty()) return 0;
  std::vector<uint64_t> sorted = nps;
  std::sort(sorted.begin(), sorted.end());
  return sorted[sorted.size() / 2];
}

namespace {

// One run of the sweep's test under the kernel and target settings in force: (nodes, nodes/s).
std::pair<uint64_t, uint64_t> run_once(const SweepOptions& o, const search::Options& search_options) {
  std::ostringstream quiet;
  const std::atomic<bool> never{false};
  if (o.speedtest) {
    SpeedtestOptions s;
    s.threads = o.threads;
    s.hash_mb = o.hash_mb;
    s.seconds = o.seconds;
    const SpeedtestResult r = run_speedtest(s, search_options, quiet, quiet, never);
    if (r.time_ms <= 0)
      throw std::runtime_error("sweep: cannot allocate the speedtest's table of " +
                               std::to_string(o.hash_mb) + " MB");
    return {r.nodes, r.nodes * 1000 / uint64_t(r.time_ms)};
  }
  search::TranspositionTable tt;
  if (!tt.resize(size_t(o.hash_mb)))
    throw std::runtime_error("sweep: cannot allocate a table of " + std::to_string(o.hash_mb) + " MB");
  search::ThreadPool pool(tt, search_options);
  pool.resize(o.threads);
  search::ClusterSearch search(tt, pool);
  const uci::BenchResult r = uci::run_bench(tt, search, o.depth, quiet, never);
  return {r.nodes, r.nodes * 1000 / uint64_t(std::max<int64_t>(r.time_ms, 1))};
}

}  // namespace

SweepResult run_sweep(const SweepOptions& o, const search::Options& search_options, std::ostream& out) {
  // The kernel and target settings in force come back however the sweep ends.
  struct Restore {
    simd::Kernels kernels = simd::kernels();
    std::string target = simd::simd_target();
    ~Restore() {
      simd::set_kernels(kernels);
      simd::set_simd_target(target);
    }
  };
  std::optional<Restore> restore(std::in_place);
  SweepResult result;
  result.rows.push_back({"scalar", "best", {}, {}});
  for (const std::string& target : simd::available_targets())
    for (simd::Kernels k : {simd::Kernels::kVector, simd::Kernels::kAllVector})
      result.rows.push_back({simd::kernels_name(k), target, {}, {}});

  out << "info string sweep of " << (o.speedtest ? "speedtest" : "bench") << ", " << result.rows.size()
      << " settings, " << o.rounds << " rounds, threads " << o.threads << std::endl;
  for (int round = 1; round <= o.rounds; ++round) {
    for (SweepRow& row : result.rows) {
      simd::Kernels k;
      simd::parse_kernels(row.kernels, k);
      simd::set_kernels(k);
      simd::set_simd_target(row.target);
      const auto [nodes, nps] = run_once(o, search_options);
      row.nodes.push_back(nodes);
      row.nps.push_back(nps);
      out << "round " << round << '/' << o.rounds << " kernels " << row.kernels << " target " << row.target
          << ": nodes " << nodes << ", nodes/s " << nps << std::endl;
    }
  }
  restore.reset();

  const uint64_t signature = result.rows[0].nodes[0];
  if (!o.speedtest && o.threads == 1)
    for (const SweepRow& row : result.rows)
      for (uint64_t n : row.nodes) result.signatures_match &= n == signature;

  const double reference = double(std::max<uint64_t>(result.rows[0].median_nps(), 1));
  out << "\n| kernels | SIMD target | nodes/s (median of " << o.rounds << ") | ratio to scalar |\n"
      << "|---|---|---|---|\n";
  for (const SweepRow& row : result.rows)
    out << "| " << row.kernels << " | " << row.target << " | " << row.median_nps() << " | " << std::fixed
        << std::setprecision(2) << double(row.median_nps()) / reference << " |\n";
  if (!o.speedtest && o.threads == 1)
    out << "\nSignature " << signature
        << (result.signatures_match ? " in every run" : " NOT the same in every run") << '\n';
  out << std::flush;
  return result;
}

#if VBLITZ_JSON
nlohmann::json sweep_json(const SweepResult& r, const SweepOptions& o) {
  const double reference = double(std::max<uint64_t>(r.rows[0].median_nps(), 1));
  nlohmann::json rows = nlohmann::json::array();
  for (const SweepRow& row : r.rows)
    rows.push_back({{"kernels", row.kernels},
                    {"simd_target", row.target},
                    {"nodes", row.nodes},
                    {"nodes_per_second", row.nps},
                    {"median_nodes_per_second", row.median_nps()},
                    {"ratio_to_scalar", double(row.median_nps()) / reference}});
  nlohmann::json doc = {{"test", o.speedtest ? "speedtest" : "bench"},
                        {"rounds", o.rounds},
                        {"threads", o.threads},
                        {"hash_mb", o.hash_mb},
                        {"runs", rows}};
  if (o.speedtest) {
    doc["seconds"] = o.seconds;
  } else {
    doc["depth"] = o.depth;
    if (o.threads == 1) doc["signatures_match"] = r.signatures_match;
  }
  return doc;
}
#endif

}  // namespace vblitz::app
