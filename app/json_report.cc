// JSON results (docs/result.schema.json).
#include "app/json_report.h"

#include <ctime>
#include <fstream>

#include "app/build_info.h"
#include "core/text.h"
#include "eval/network.h"
#include "search/topology.h"
#include "simd/dispatch.h"

namespace vblitz::app {

namespace {

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  std::tm parts{};
  gmtime_r(&now, &parts);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &parts);
  return text;
}

uint64_t per_second(uint64_t nodes, int64_t ms) { return nodes * 1000 / uint64_t(std::max<int64_t>(ms, 1)); }

}  // namespace

nlohmann::json topology_json(const search::Topology& t) {
  nlohmann::json memory = nlohmann::json::array();
  for (uint64_t bytes : t.numa_memory) memory.push_back(bytes >> 20);
  return {{"source", t.source},       {"packages", t.packages}, {"numa_nodes", t.numa_nodes},
          {"l3_groups", t.l3_groups}, {"cores", t.cores},       {"hardware_threads", t.hardware_threads()},
          {"numa_memory_mb", memory}};
}

nlohmann::json result_document(const std::string& kind) {
  const BuildInfo b = build_info();
  const MachineInfo m = machine_info();
  return {{"schema", kResultSchema},
          {"kind", kind},
          {"date", utc_now()},
          {"build",
           {{"version", b.version},
            {"commit", b.commit},
            {"build_type", b.build_type},
            {"compiler", b.compiler},
            {"flags", b.flags}}},
          {"machine",
           {{"cpu_model", m.cpu_model},
            {"hardware_threads", m.hardware_threads},
            {"memory_mb", m.memory_mb},
            {"os", m.os},
            {"simd_targets", simd::available_targets()},
            {"topology", topology_json(search::machine_topology())}}}};
}

nlohmann::json settings_json(const search::Options& options, int threads, size_t hash_mb) {
  const bool network = options.eval_mode == search::EvalMode::kNetwork;
  return {{"kernels", simd::kernels_name(simd::kernels())},
          {"simd_target", simd::simd_target()},
          {"active_target", simd::active_target()},
          {"eval_mode", search::eval_mode_name(options.eval_mode)},
          {"network", network ? eval::active_network_name() : ""},
          {"threads", threads},
          {"thread_binding", search::binding_name(options.thread_binding)},
          {"hash_mb", hash_mb}};
}

nlohmann::json bench_json(const uci::BenchResult& r) {
  nlohmann::json doc = {{"depth", r.depth},
                        {"positions", r.positions},
                        {"nodes", r.nodes},
                        {"time_ms", r.time_ms},
                        {"nodes_per_second", per_second(r.nodes, r.time_ms)},
                        {"hash_hit_rate", r.hash_hit_rate},
                        {"pawn_hash_hit_rate", r.pawn_hash_hit_rate},
                        {"king_hash_hit_rate", r.king_hash_hit_rate},
                        {"complete", !r.stopped}};
  for (const search::RankShare& p : r.processes)
    doc["processes"].push_back({{"nodes", p.nodes},
                                {"entries_sent", p.sent},
                                {"entries_received", p.received},
                                {"entries_stored", p.stored},
                                {"rounds", p.rounds}});
  return doc;
}

nlohmann::json speedtest_json(const SpeedtestResult& r, const SpeedtestOptions& options) {
  const uint64_t nps = per_second(r.nodes, r.time_ms);
  return {{"seconds", options.seconds},
          {"games", r.games},
          {"positions", r.positions},
          {"nodes", r.nodes},
          {"time_ms", r.time_ms},
          {"nodes_per_second", nps},
          {"nodes_per_second_per_thread", nps / uint64_t(std::max(options.threads, 1))},
          {"cpu_time_ms", r.cpu_ms},
          {"nodes_per_cpu_second", per_second(r.nodes, r.cpu_ms)},
          {"hashfull_permille", r.hashfull},
          {"mean_depth", r.mean_depth},
          {"complete", !r.stopped}};
}

std::optional<std::string> write_json_file(const nlohmann::json& doc, const std::string& path) {
  std::ofstream out(path);
  if (!out) return "cannot write " + core::quote(path);
  out << doc.dump(2) << '\n';
  if (!out.flush()) return "cannot write " + core::quote(path);
  return std::nullopt;
}

}  // namespace vblitz::app
