// Match statistics on game pairs.
#include "match/stats.h"

#include <algorithm>
#include <cmath>

namespace vblitz::match {

namespace {

constexpr double kZ95 = 1.959963984540054;  // the two-sided 95% quantile of the normal

// Mean and variance of the per-game score over pairs (a pair's points / 2).
void pair_moments(const Pentanomial& pairs, double& mean, double& variance, double& n) {
  n = 0;
  double sum = 0, sum2 = 0;
  for (int k = 0; k < 5; ++k) {
    const double x = k / 4.0, c = double(pairs[size_t(k)]);
    n += c;
    sum += c * x;
    sum2 += c * x * x;
  }
  mean = n > 0 ? sum / n : 0.5;
  variance = n > 0 ? std::max(sum2 / n - mean * mean, 0.0) : 0;
}

}  // namespace

double elo_of_score(double score) {
  score = std::clamp(score, 1e-6, 1 - 1e-6);
  return -400 * std::log10(1 / score - 1);
}

double score_of_elo(double elo) { return 1 / (1 + std::pow(10.0, -elo / 400)); }

MatchNumbers match_numbers(const Pentanomial& pairs) {
  double mean, variance, n;
  pair_moments(pairs, mean, variance, n);
  MatchNumbers m;
  m.score = mean;
  m.elo = elo_of_score(mean);
  if (n > 0 && variance > 0) {
    const double error = std::sqrt(variance / n);
    m.elo_error = (elo_of_score(mean + kZ95 * error) - elo_of_score(mean - kZ95 * error)) / 2;
    m.los = 0.5 * std::erfc(-(mean - 0.5) / error / std::sqrt(2.0));
  }
  return m;
}

double sprt_llr(const Pentanomial& pairs, double elo0, double elo1) {
  double mean, variance, n;
  pair_moments(pairs, mean, variance, n);
  if (n == 0 || variance <= 0) return 0;
  const double s0 = score_of_elo(elo0), s1 = score_of_elo(elo1);
  return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance);
}

double sprt_lower_bound(double alpha, double beta) { return std::log(beta / (1 - alpha)); }
double sprt_upper_bound(double alpha, double beta) { return std::log((1 - beta) / alpha); }

}  // namespace vblitz::match
