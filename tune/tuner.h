// Fitting the evaluation's parameters to game results: Texel-style gradient descent, coordinate
// hill climbing and a genetic algorithm, all minimising the same loss, the mean squared error
// between the result and sigmoid(K * eval / 400), on a linear model of the evaluation.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "tune/tuning_set.h"

namespace vblitz::tune {

// Mean squared error of parameters w on the positions [begin, end) (all if end is 0), on all
// OpenMP threads.
double loss(const TuningSet& set, const std::vector<double>& w, double k, size_t begin = 0, size_t end = 0);
// The scaling constant K that minimises the loss of the starting parameters (golden section
// search on [0.05, 5]).
double fit_k(const TuningSet& set);

struct TuneOptions {
  double k = 0;              // 0: fit it first
  int epochs = 50;           // texel: passes over the data; hill: passes over the parameters;
                             // ga: generations
  size_t batch = 16384;      // texel: positions per gradient step
  double rate = 1.0;         // texel: step size (centipawns for Adam)
  bool adam = true;          // texel: Adam, or plain gradient descent
  int population = 32;       // ga
  uint64_t seed = 1;         // ga
  std::vector<bool> frozen;  // parameters never changed (sized like the vector, or empty)
  double l2 = 0;             // all methods minimise loss + l2 * sum((w - start)^2): a pull
                             // toward the starting values for terms the data hardly sees
};

// The objective the methods minimise: loss plus the L2 pull toward set.start.
double objective(const TuningSet& set, const std::vector<double>& w, const TuneOptions& o);

// Progress after each epoch, pass or generation: its number, the loss on all positions, and
// the parameters; the caller prints it and may write a checkpoint.
using Progress = std::function<void(int epoch, double loss, const std::vector<double>& w)>;

std::vector<double> tune_texel(const TuningSet& set, std::vector<double> w, const TuneOptions& o,
                               const Progress& progress);
std::vector<double> tune_hill(const TuningSet& set, std::vector<double> w, const TuneOptions& o,
                              const Progress& progress);
std::vector<double> tune_ga(const TuningSet& set, std::vector<double> w, const TuneOptions& o,
                            const Progress& progress);

// Deep Blue's "noisy" terms: the rise in loss when each parameter moves `step` centipawns
// either way from w (mean of the two), smallest first; flat ones carry little information.
std::vector<std::pair<int, double>> loss_curvature(const TuningSet& set, const std::vector<double>& w,
                                                   double k, double step = 10);

}  // namespace vblitz::tune
