// `sweep`: scalar against vector in one command. `bench` (or a short `speedtest`) runs for the
// scalar twins and then for `Kernels vector` and `all-vector` on every SIMD target this CPU
// supports, in interleaved rounds; a table gives each setting's median nodes per second and its
// ratio to the scalar twins, and for `bench` whether the node count (the signature) is the same
// in every run, as it must be.
#pragma once

#include <iosfwd>
#if VBLITZ_JSON
#include <nlohmann/json.hpp>
#endif
#include <string>
#include <vector>

#include "search/search.h"

namespace vblitz::app {

struct SweepOptions {
  bool speedtest = false;  // false: bench
  int rounds = 3;
  int depth = 12;    // bench
  int threads = 1;   // bench and speedtest
  int seconds = 20;  // speedtest, per run
  int hash_mb = 16;  // bench uses 16 MB, as its signature needs
};

struct SweepRow {
  std::string kernels, target;  // target: "best" for the scalar twins
  std::vector<uint64_t> nps;    // per round
  std::vector<uint64_t> nodes;  // per round
  uint64_t median_nps() const;
};

struct SweepResult {
  std::vector<SweepRow> rows;    // rows[0]: the scalar twins
  bool signatures_match = true;  // bench: every run searched the same node count
};

// Runs the sweep; prints progress and the table to `out`. Restores the kernel and target settings.
SweepResult run_sweep(const SweepOptions& options, const search::Options& search_options, std::ostream& out);

// The "sweep" object of the JSON result.
#if VBLITZ_JSON
nlohmann::json sweep_json(const SweepResult& r, const SweepOptions& options);
#endif

}  // namespace vblitz::app
