// Machine-readable results for people who compare machines: `bench`, `speedtest` and `sweep`
// write one JSON document each with `--json FILE`. The schema is docs/result.schema.json
// ("vblitz-result/2"): the build, the machine, the settings in force, and the figures.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "app/speedtest.h"
#include "search/search.h"
#include "search/topology.h"
#include "uci/bench.h"

namespace vblitz::app {

inline constexpr const char* kResultSchema = "vblitz-result/2";

// A new document of `kind` ("bench", "speedtest" or "sweep") with the schema, the date (UTC),
// the build and the machine.
nlohmann::json result_document(const std::string& kind);

// The topology: source, packages, NUMA nodes, L3 groups, cores, hardware threads, memory per node.
nlohmann::json topology_json(const search::Topology& t);

// The settings now in force: kernels, SIMD target (asked for and active), evaluation, threads
// and table size.
nlohmann::json settings_json(const search::Options& options, int threads, size_t hash_mb);

nlohmann::json bench_json(const uci::BenchResult& r);
nlohmann::json speedtest_json(const SpeedtestResult& r, const SpeedtestOptions& options);

// Writes `doc` to `path` (indented); returns the error, if any.
std::optional<std::string> write_json_file(const nlohmann::json& doc, const std::string& path);

}  // namespace vblitz::app
