// SPSA on the search's parameters with the engine's own games.
#include "tune/spsa.h"

#include <omp.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <limits>
#include <map>
#include <mutex>
#include <ostream>
#include <sstream>

#include "core/file.h"
#include "core/game.h"
#include "core/movegen.h"
#include "core/text.h"
#include "data/datagen.h"
#include "search/search_params.h"

namespace vblitz::tune {

namespace {

constexpr size_t kTableMegabytes = 8;  // per player

// Seeds of iteration k: one stream for the signs and roundings, one for its game pair.
std::mt19937_64 iteration_rng(const SpsaOptions& o, int k) {
  return std::mt19937_64(o.seed * 0x9E3779B97F4A7C15ULL + uint64_t(k) * 0xBF58476D1CE4E5B9ULL);
}
std::mt19937_64 pair_rng(const SpsaOptions& o, int k) {
  return std::mt19937_64(o.seed * 0x94D049BB133111EBULL + uint64_t(k) * 1000003ULL);
}

// `value` rounded down or up at random, up with probability equal to its fraction.
int round_at_random(double value, std::mt19937_64& rng) {
  const double down = std::floor(value);
  return int(down) + (std::uniform_real_distribution<double>(0.0, 1.0)(rng) < value - down ? 1 : 0);
}

// The two players of one thread: each with its own table and parameters.
struct Players {
  std::array<search::TranspositionTable, 2> tt;
  std::array<search::Options, 2> options;
  search::Searcher first{tt[0], options[0]}, second{tt[1], options[1]};
  explicit Players(search::EvalMode mode) {
    for (int i = 0; i < 2; ++i) {
      options[size_t(i)].eval_mode = mode;
      tt[size_t(i)].resize(kTableMegabytes);
    }
  }
};

// Plays one game from `start` (a position after the opening's random plies); `white` is the
// player (0 or 1) with White. Returns 1, 0 or -1 from player 0's side.
int play_game(const std::string& start, int white, uint64_t nodes, Players& players) {
  core::Game game;
  if (game.set_fen(start)) return 0;
  search::Searcher* searcher[2] = {&players.first, &players.second};
  for (int i = 0; i < 2; ++i) {
    players.tt[size_t(i)].clear();
    searcher[i]->clear();
  }
  data::Adjudicator adjudicator;
  const std::atomic<bool> stop{false};
  search::Limits limits;
  limits.nodes = nodes;
  for (int plies = 0;; ++plies) {
    core::Position& pos = game.position();
    int white_result = 2;  // 2: not over
    if (core::MoveList<core::LEGAL>(pos).size() == 0)
      white_result = !pos.in_check() ? 0 : pos.side_to_move() == core::WHITE ? -1 : 1;
    else if (pos.is_draw(0) || plies >= data::kMaxGamePlies)
      white_result = 0;
    if (white_result == 2) {
      const int mover = pos.side_to_move() == core::WHITE ? white : 1 - white;
      players.tt[size_t(mover)].new_search();
      const search::Result r = searcher[mover]->run(pos, limits, stop, nullptr);
      const int white_score = pos.side_to_move() == core::WHITE ? r.score : -r.score;
      const std::string adjudged = adjudicator.after_search(white_score, plies);
      game.play({pos.to_uci(r.best)});
      if (adjudged.empty()) continue;
      white_result = adjudged == "1-0" ? 1 : adjudged == "0-1" ? -1 : 0;
    }
    return white == 0 ? white_result : -white_result;
  }
}

std::string run_signature(const SpsaOptions& o, const std::vector<SpsaParam>& params) {
  std::ostringstream s;
  s << "vblitz spsa 2\niterations " << o.iterations << "\nlag " << o.lag << "\nnodes " << o.nodes
    << "\nrandom-plies " << o.random_plies << "\nseed " << o.seed << "\nopenings " << o.openings_path
    << "\nr-end " << o.r_end << "\neval "
    << (o.eval_mode == search::EvalMode::kNetwork ? "network" : "classic") << "\nparams";
  for (const SpsaParam& p : params) s << ' ' << p.name << ':' << p.value << ':' << p.c_end;
  s << '\n';
  return s.str();
}

std::string csv_header(const std::vector<SpsaParam>& params) {
  std::string h = "iteration,result";
  for (const SpsaParam& p : params) h += "," + p.name;
  return h;
}

// Reads the history: each row's values by iteration, through `on_row(k, values)`, and the last row's
// iteration in `done`. Returns the error, if any.
std::optional<std::string> read_history(const std::string& path, const std::vector<SpsaParam>& params,
                                        int& done,
                                        const std::function<void(int, const std::vector<double>&)>& on_row) {
  std::ifstream in(path);
  std::string line;
  if (!std::getline(in, line)) return std::nullopt;  // empty: a fresh start
  if (line != csv_header(params)) return core::quote(path) + " is the history of other parameters";
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::istringstream row(line);
    std::string cell;
    std::vector<double> cells;
    while (std::getline(row, cell, ',')) {
      try {
        cells.push_back(std::stod(cell));
      } catch (...) {
        return core::quote(path) + ": a row that is not numbers";
      }
    }
    if (cells.size() != params.size() + 2) return core::quote(path) + ": a row of the wrong length";
    if (int(cells[0]) != done + 1) return core::quote(path) + ": rows out of order";
    done = int(cells[0]);
    on_row(done, std::vector<double>(cells.begin() + 2, cells.end()));
  }
  return std::nullopt;
}

search::SearchParams rounded(const std::vector<SpsaParam>& params) {
  search::SearchParams out;
  for (const SpsaParam& p : params) out.*p.field = std::clamp(int(std::lround(p.value)), p.min, p.max);
  return out;
}

}  // namespace

double spsa_c(double c_end, int k, int n, const SpsaOptions& o) {
  return std::max(0.5, c_end * std::pow(double(n), o.gamma) / std::pow(double(k), o.gamma));
}

double spsa_r(double c_end, int k, int n, const SpsaOptions& o) {
  const double big_a = o.a_ratio * n;
  const double a = o.r_end * c_end * c_end * std::pow(big_a + n, o.alpha);
  const double c = spsa_c(c_end, k, n, o);
  return a / std::pow(big_a + k, o.alpha) / (c * c);
}

std::vector<SpsaParam> spsa_params(const SpsaOptions& o) {
  std::vector<SpsaParam> params;
  for (const search::TunableParam& t : search::tunable_params())
    if (o.only.empty() || std::find(o.only.begin(), o.only.end(), t.name) != o.only.end())
      params.push_back({t.field, t.name, t.min, t.max, t.step, double(t.value)});
  for (const std::string& name : o.only)
    if (!search::find_param(name)) return {};
  return params;
}

SpsaPoint spsa_point(const std::vector<SpsaParam>& params, int k, const SpsaOptions& o) {
  std::mt19937_64 rng = iteration_rng(o, k);
  SpsaPoint point;
  for (const SpsaParam& p : params) {
    const int flip = (rng() & 1) ? 1 : -1;
    const double c = spsa_c(p.c_end, k, o.iterations, o);
    point.flip.push_back(flip);
    point.c.push_back(c);
    point.plus.*p.field = std::clamp(round_at_random(p.value + c * flip, rng), p.min, p.max);
    point.minus.*p.field = std::clamp(round_at_random(p.value - c * flip, rng), p.min, p.max);
  }
  return point;
}

void spsa_update(std::vector<SpsaParam>& params, const SpsaPoint& point, int k, int result,
                 const SpsaOptions& o) {
  for (size_t i = 0; i < params.size(); ++i) {
    SpsaParam& p = params[i];
    const double r = spsa_r(p.c_end, k, o.iterations, o);
    p.value = std::clamp(p.value + r * point.c[i] * result * point.flip[i], double(p.min), double(p.max));
  }
}

int play_spsa_pair(const SpsaPoint& point, int k, const std::vector<std::string>& openings,
                   const SpsaOptions& o) {
  thread_local std::unique_ptr<Players> players;
  if (!players) players = std::make_unique<Players>(o.eval_mode);
  players->options[0].eval_mode = players->options[1].eval_mode = o.eval_mode;
  players->options[0].params = point.plus;
  players->options[1].params = point.minus;
  std::mt19937_64 rng = pair_rng(o, k);
  core::Game game;
  if (game.set_fen(openings[rng() % openings.size()])) return 0;
  for (int i = 0; i < o.random_plies; ++i) {
    const core::MoveList<core::LEGAL> legal(game.position());
    if (legal.size() == 0) break;
    game.play({game.position().to_uci(*(legal.begin() + long(rng() % legal.size())))});
  }
  const std::string start = game.position().fen();
  return play_game(start, 0, o.nodes, *players) + play_game(start, 1, o.nodes, *players);
}

std::string spsa_usage() {
  return "usage: vblitz spsa OUTDIR [--iterations N] [--lag N] [--nodes N] [--openings FILE] "
         "[--random-plies N] [--threads N] [--seed N] [--r-end X] [--params NAME,NAME,...]\n"
         "(the global flag --eval-mode chooses the players' evaluation; docs/tuning.md)";
}

std::optional<std::string> parse_spsa_args(const std::vector<std::string>& args, SpsaOptions& o) {
  const auto error = core::parse_flag_pairs(
      args, std::string("spsa needs an output directory"), o.out_dir,
      [&](const std::string& flag, const std::string& value) -> std::optional<std::string> {
        auto number = [&](long lo, long hi) { return core::parse_long(value, lo, hi); };
        std::optional<long> v;
        if (flag == "--iterations" && (v = number(1, 10000000))) {
          o.iterations = int(*v);
        } else if (flag == "--lag" && (v = number(1, 65536))) {
          o.lag = int(*v);
        } else if (flag == "--nodes" && (v = number(1, 1L << 32))) {
          o.nodes = uint64_t(*v);
        } else if (flag == "--openings") {
          o.openings_path = value;
        } else if (flag == "--random-plies" && (v = number(0, 40))) {
          o.random_plies = int(*v);
        } else if (flag == "--threads" && (v = number(1, 1024))) {
          o.threads = int(*v);
        } else if (flag == "--seed" && (v = number(0, std::numeric_limits<long>::max()))) {
          o.seed = uint64_t(*v);
        } else if (flag == "--r-end") {
          const auto r_end = core::parse_double(value, 0, 1);
          if (!r_end || !(*r_end > 0 && *r_end < 1)) return "bad argument --r-end " + core::quote(value);
          o.r_end = *r_end;
        } else if (flag == "--params") {
          o.only.clear();
          std::istringstream names(value);
          for (std::string name; std::getline(names, name, ',');) {
            if (!search::find_param(name)) return "no search parameter " + core::quote(name);
            o.only.push_back(name);
          }
        } else {
          return "bad argument " + core::quote(flag + " " + value);
        }
        return std::nullopt;
      });
  if (error) return error;
  return std::nullopt;
}

int run_spsa(const SpsaOptions& o, std::ostream& log) {
  std::vector<std::string> openings = {core::Position::kStartFen};
  if (!o.openings_path.empty()) {
    if (auto error = core::check_input_file(o.openings_path))
      return log << "--openings: " << *error << '\n', 1;
    openings = data::read_openings(o.openings_path);
    if (openings.empty()) return log << "no openings in '" << o.openings_path << "'\n", 1;
  }
  std::vector<SpsaParam> params = spsa_params(o);
  if (params.empty()) return log << "no parameters to tune\n", 1;
  std::error_code ec;
  std::filesystem::create_directories(o.out_dir, ec);
  const std::filesystem::path dir(o.out_dir);
  const std::string run_path = (dir / "spsa.run").string(), csv_path = (dir / "spsa.csv").string(),
                    values_path = (dir / "params.txt").string();
  const std::string signature = run_signature(o, params);
  if (std::filesystem::exists(run_path)) {
    std::string recorded;
    if (auto err = core::read_file(run_path, 1 << 20, recorded)) return log << *err << '\n', 1;
    if (recorded != signature)
      return log << "'" << run_path << "' records another run; use another directory or the same options\n",
             1;
  } else if (!(std::ofstream(run_path) << signature)) {
    return log << "cannot write '" << run_path << "'\n", 1;
  }
  // The values after each of the last `lag` updates, by iteration (k % lag): iteration k starts
  // from those after k - lag (before any update: the declared values), and update k - lag is
  // overwritten only by update k, which waits for iteration k's pair.
  const size_t lag = size_t(o.lag);
  std::vector<double> declared;
  for (const SpsaParam& p : params) declared.push_back(p.value);
  std::vector<std::vector<double>> recent(lag, declared);
  int done = 0;
  if (auto err = read_history(csv_path, params, done,
                              [&](int k, const std::vector<double>& v) { recent[size_t(k) % lag] = v; }))
    return log << *err << '\n', 1;
  if (done > o.iterations) return log << "'" << csv_path << "' is longer than --iterations\n", 1;
  if (done > 0)
    for (size_t i = 0; i < params.size(); ++i) params[i].value = recent[size_t(done) % lag][i];
  std::ofstream csv(csv_path, std::ios::app);
  if (done == 0) csv << csv_header(params) << '\n';
  if (!csv) return log << "cannot write '" << csv_path << "'\n", 1;
  const int threads = o.threads > 0 ? o.threads : omp_get_max_threads();
  log << "spsa: " << params.size() << " parameters, iterations (game pairs) " << done + 1 << " to "
      << o.iterations << " at " << o.nodes << " nodes a move, lag " << o.lag << ", " << threads
      << " threads\n";

  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  std::mutex mutex;
  std::condition_variable applied_cv;
  int applied = done;                                 // updates applied, in order
  int next = done + 1;                                // the next iteration to start
  std::map<int, std::pair<SpsaPoint, int>> finished;  // played, not yet applied: point and result
  long wins = 0, losses = 0;
  double waiting = 0;  // thread seconds spent waiting for an update to start from
  bool failed = false;
  // Applies the finished iterations that are next in order; called with the lock held.
  const auto apply_in_order = [&] {
    for (auto it = finished.find(applied + 1); it != finished.end(); it = finished.find(applied + 1)) {
      const int k = it->first, result = it->second.second;
      spsa_update(params, it->second.first, k, result, o);
      finished.erase(it);
      std::vector<double>& slot = recent[size_t(k) % lag];
      for (size_t i = 0; i < params.size(); ++i) slot[i] = params[i].value;
      applied = k;
      wins += std::max(result, 0);
      losses += std::max(-result, 0);
      csv << k << ',' << result;
      // Every digit of the double: a resumed run reads its state back from this file, so a
      // rounded value would send it on another path than the uninterrupted run.
      for (const SpsaParam& p : params)
        csv << ',' << std::setprecision(std::numeric_limits<double>::max_digits10) << p.value;
      csv << '\n' << std::flush;
      std::ofstream values_file(values_path);
      values_file << "# vblitz spsa: iteration " << k << " of " << o.iterations << ", seed " << o.seed
                  << "; SearchParamFile format\n"
                  << search::write_search_params(rounded(params));
      if (!csv || !values_file) failed = true;
      if (k % 100 == 0 || k == o.iterations) {
        const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
        const long played = 2L * (k - done);
        log << "iteration " << k << '/' << o.iterations << ": " << played << " games this run, " << std::fixed
            << std::setprecision(1) << played / std::max(seconds, 1e-3) << " games/s, net result "
            << wins - losses << ", threads waiting " << 100.0 * waiting / std::max(seconds * threads, 1e-3)
            << "% of their time; about " << long(seconds / (k - done) * (o.iterations - k)) << " s left\n"
            << std::flush;
      }
    }
    applied_cv.notify_all();
  };
#pragma omp parallel num_threads(threads)
  for (;;) {
    SpsaPoint point;
    int k = 0;
    {
      std::unique_lock<std::mutex> lock(mutex);
      if (failed || next > o.iterations) break;
      k = next++;
      const auto wait_start = Clock::now();
      applied_cv.wait(lock, [&] { return failed || applied >= k - o.lag; });
      waiting += std::chrono::duration<double>(Clock::now() - wait_start).count();
      if (failed) break;
      std::vector<SpsaParam> from = params;
      const std::vector<double>& v = k - o.lag <= 0 ? declared : recent[size_t(k - o.lag) % lag];
      for (size_t i = 0; i < from.size(); ++i) from[i].value = v[i];
      point = spsa_point(from, k, o);
    }
    const int result = play_spsa_pair(point, k, openings, o);
    const std::lock_guard<std::mutex> lock(mutex);
    finished.emplace(k, std::make_pair(std::move(point), result));
    apply_in_order();
  }
  if (failed) return log << "cannot write '" << o.out_dir << "'\n", 1;
  log << "done: values in '" << values_path << "', history in '" << csv_path << "'\n";
  return 0;
}

}  // namespace vblitz::tune
