// bench, speedtest and sweep on the command line.
#include "app/speed_commands.h"

#include <iostream>
#include <optional>

#if VBLITZ_JSON
#include "app/json_report.h"
#endif
#include "app/speedtest.h"
#include "app/sweep.h"
#include "cluster/cluster.h"
#include "search/threads.h"
#include "uci/bench.h"
#include "uci/uci.h"

namespace vblitz::app {

namespace {

constexpr long kMaxThreads = search::ThreadPool::kMaxThreads;

// Removes "--json FILE" from args into `path`; false if --json has no value.
bool take_json_flag(std::vector<std::string>& args, std::string& path) {
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] != "--json") continue;
    if (i + 1 == args.size()) return false;
    path = args[i + 1];
    args.erase(args.begin() + long(i), args.begin() + long(i) + 2);
    --i;
  }
  return true;
}

#if VBLITZ_JSON
// Writes the document when a path was given (in a cluster run, rank 0 alone); the exit status.
int finish(const nlohmann::json& doc, const std::string& path, std::ostream& err, int status) {
  if (path.empty() || cluster::rank() != 0) return status;
  if (auto error = write_json_file(doc, path)) {
    err << *error << '\n';
    return 1;
  }
  return status;
}
#endif

int bench(const std::vector<std::string>& args, const search::Options& options,
          [[maybe_unused]] const std::string& json, std::ostream& out, std::ostream& err) {
  long depth = uci::kDefaultBenchDepth, threads = 1, hash = 0;
  const long max_hash = long(std::min<size_t>(search::physical_memory_megabytes() - 1, 1 << 20));
  if (args.size() > 3 || (args.size() > 0 && !uci::parse_int(args[0], 1, search::kMaxPly - 1, depth)) ||
      (args.size() > 1 && !uci::parse_int(args[1], 1, kMaxThreads, threads)) ||
      (args.size() > 2 && !uci::parse_int(args[2], 1, max_hash, hash))) {
    err << "usage: vblitz bench [depth 1-" << search::kMaxPly - 1 << " [threads 1-" << kMaxThreads
        << " [hash MB 1-" << max_hash << "]]] [--json FILE]\n";
    return 2;
  }
  search::TranspositionTable tt;
  // The default table unless a size is given (scaling runs give one sized for the threads).
  if (hash && !tt.resize(size_t(hash))) {
    err << "bench: not enough memory for a " << hash << " MB table\n";
    return 1;
  }
  search::ThreadPool pool(tt, options);
  pool.resize(int(threads));
  search::ClusterSearch search(tt, pool);
  const std::atomic<bool> never{false};
  const uci::BenchResult r = uci::run_bench(tt, search, int(depth), out, never);
#if VBLITZ_JSON
  nlohmann::json doc = result_document("bench");
  doc["settings"] = settings_json(options, int(threads), tt.megabytes());
  doc["bench"] = bench_json(r);
  return finish(doc, json, err, 0);
#else
  return r.stopped ? 1 : 0;
#endif
}

int speedtest(const std::vector<std::string>& args, const search::Options& options,
              [[maybe_unused]] const std::string& json, std::ostream& out, std::ostream& err) {
  SpeedtestOptions o = default_speedtest_options();
  long threads = o.threads, hash = o.hash_mb, seconds = o.seconds;
  const long max_hash = long(std::min<size_t>(search::physical_memory_megabytes() - 1, 1 << 20));
  if (args.size() > 3 || (args.size() > 0 && !uci::parse_int(args[0], 1, kMaxThreads, threads)) ||
      (args.size() > 1 && !uci::parse_int(args[1], 1, max_hash, hash)) ||
      (args.size() > 2 && !uci::parse_int(args[2], 1, 100000, seconds))) {
    err << "usage: vblitz speedtest [threads 1-" << kMaxThreads << " [hash MB 1-" << max_hash
        << " [seconds 1-100000]]] [--json FILE]\n";
    return 2;
  }
  o.threads = int(threads);
  o.hash_mb = args.size() > 1 ? int(hash) : speedtest_hash_mb(o.threads);
  o.seconds = int(seconds);
  const std::atomic<bool> never{false};
  const SpeedtestResult r = run_speedtest(o, options, out, err, never);
  if (r.stopped) return 1;
#if VBLITZ_JSON
  nlohmann::json doc = result_document("speedtest");
  doc["settings"] = settings_json(options, o.threads, size_t(o.hash_mb));
  doc["speedtest"] = speedtest_json(r, o);
  return finish(doc, json, err, 0);
#else
  return 0;
#endif
}

int sweep(const std::vector<std::string>& args, const search::Options& options,
          [[maybe_unused]] const std::string& json, std::ostream& out, std::ostream& err) {
  SweepOptions o;
  size_t i = 0;
  if (i < args.size() && (args[i] == "bench" || args[i] == "speedtest"))
    o.speedtest = args[i++] == "speedtest";
  for (; i < args.size(); i += 2) {
    long v = 0;
    const bool has_value = i + 1 < args.size();
    if (has_value && args[i] == "--rounds" && uci::parse_int(args[i + 1], 1, 100, v))
      o.rounds = int(v);
    else if (has_value && args[i] == "--depth" && uci::parse_int(args[i + 1], 1, search::kMaxPly - 1, v))
      o.depth = int(v);
    else if (has_value && args[i] == "--threads" && uci::parse_int(args[i + 1], 1, kMaxThreads, v))
      o.threads = int(v);
    else if (has_value && args[i] == "--seconds" && uci::parse_int(args[i + 1], 1, 100000, v))
      o.seconds = int(v);
    else {
      err << "usage: vblitz sweep [bench|speedtest] [--rounds N] [--depth D] [--threads T] [--seconds S]"
             " [--json FILE]\n";
      return 2;
    }
  }
  const SweepResult r = run_sweep(o, options, out);
#if VBLITZ_JSON
  nlohmann::json doc = result_document("sweep");
  doc["settings"] = settings_json(options, o.threads, size_t(o.hash_mb));
  doc["sweep"] = sweep_json(r, o);
  return finish(doc, json, err, r.signatures_match ? 0 : 1);
#else
  return r.signatures_match ? 0 : 1;
#endif
}

}  // namespace

bool is_speed_command(const std::string& command) {
  return command == "bench" || command == "speedtest" || command == "sweep";
}

int run_speed_command(const std::string& command, std::vector<std::string> args,
                      const search::Options& options, std::ostream& out, std::ostream& err) {
  std::string json;
  if (!take_json_flag(args, json)) {
    err << "--json needs a file name\n";
    return 2;
  }
#if !VBLITZ_JSON
  if (!json.empty()) {
    err << "--json: this build has no JSON results (configured with -DVBLITZ_JSON=OFF)\n";
    return 2;
  }
#endif
  if (command == "bench") return bench(args, options, json, out, err);
  if (command == "speedtest") return speedtest(args, options, json, out, err);
  return sweep(args, options, json, out, err);
}

}  // namespace vblitz::app
