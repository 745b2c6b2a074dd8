// `vblitz spsa`: tunes the search's constants (search/search_params.h) by simultaneous
// perturbation stochastic approximation, the way OpenBench runs it. Each iteration is one game
// pair: it perturbs every parameter at once by +-c (a random sign each), plays the two settings
// against each other with the engine's own game loop (fixed nodes, both colours of one opening),
// and moves every parameter by r * c * (wins - losses) * sign. The pairs run on all cores without
// a barrier: iteration k starts from the values after iteration k - lag, and the updates are
// applied in order, so the run is a function of its seed and lag alone (the same history on any
// thread count), and a stopped run resumes from its history file to the same values.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "search/search.h"

namespace vblitz::tune {

struct SpsaOptions {
  std::string out_dir;            // history (spsa.csv), run record (spsa.run), values (params.txt)
  std::string openings_path;      // EPD/FEN lines ("" = the standard start)
  std::vector<std::string> only;  // the parameters to tune (empty = all)
  int iterations = 4000;          // game pairs, each its own perturbation
  int lag = 32;                   // iteration k starts from the values after k - lag: the pairs in flight
  uint64_t nodes = 5000;          // per move
  int random_plies = 4;           // random legal moves after the opening
  int threads = 0;                // 0 = all cores
  uint64_t seed = 1;
  double r_end = 0.002;  // OpenBench's defaults
  double alpha = 0.602, gamma = 0.101, a_ratio = 0.1;
  search::EvalMode eval_mode = search::kDefaultEvalMode;
};

// OpenBench's schedule for iteration k (1-based) of n: the perturbation c_k = c_end n^gamma /
// k^gamma (at least 0.5: parameters are integers), and the rate r_k = a / (A + k)^alpha / c_k^2
// with A = a_ratio n and a = r_end c_end^2 (A + n)^alpha, so that c_n = c_end and r_n = r_end.
double spsa_c(double c_end, int k, int n, const SpsaOptions& o);
double spsa_r(double c_end, int k, int n, const SpsaOptions& o);

// One parameter being tuned: its declaration's field, range and step, and its value (real).
struct SpsaParam {
  int search::SearchParams::*field;
  std::string name;
  int min, max;
  double c_end;
  double value;
};
std::vector<SpsaParam> spsa_params(const SpsaOptions& o);  // empty on an unknown name

// The two settings of iteration k and the signs, from the run's seed: each parameter at value
// +- c_k, rounded to an integer at random in proportion (5.3 is 6 three times in ten), clipped.
struct SpsaPoint {
  search::SearchParams plus, minus;
  std::vector<int> flip;
  std::vector<double> c;
};
SpsaPoint spsa_point(const std::vector<SpsaParam>& params, int k, const SpsaOptions& o);
// Moves every parameter by r_k c_k result flip, clipped to its range; `result` is the plus
// side's wins minus losses over the iteration's games.
void spsa_update(std::vector<SpsaParam>& params, const SpsaPoint& point, int k, int result,
                 const SpsaOptions& o);

// Plays iteration k's game pair: plus against minus from one opening, each with White once;
// returns plus's wins minus losses (-2 to 2).
int play_spsa_pair(const SpsaPoint& point, int k, const std::vector<std::string>& openings,
                   const SpsaOptions& o);

std::optional<std::string> parse_spsa_args(const std::vector<std::string>& args, SpsaOptions& options);
std::string spsa_usage();
// Runs (or resumes) the tune; progress on `log`. Returns the exit status.
int run_spsa(const SpsaOptions& options, std::ostream& log);

}  // namespace vblitz::tune
