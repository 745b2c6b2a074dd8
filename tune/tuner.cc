// The loss, K, and the three optimizers.
#include "tune/tuner.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace vblitz::tune {

namespace {

double sigmoid(double eval, double k) { return 1.0 / (1.0 + std::pow(10.0, -k * eval / 400.0)); }

// For each parameter, the positions it moves and by how much per centipawn.
using Columns = std::vector<std::vector<std::pair<uint32_t, float>>>;

Columns columns_of(const TuningSet& set) {
  Columns columns(set.start.size());
  for (uint32_t i = 0; i < set.size(); ++i)
    for (uint32_t c = set.first[i]; c < set.first[i + 1]; ++c)
      columns[set.coefficients[c].index].emplace_back(i, set.coefficients[c].value);
  return columns;
}

std::vector<double> model_evals(const TuningSet& set, const std::vector<double>& w) {
  std::vector<double> evals(set.size());
#pragma omp parallel for schedule(static)
  for (long i = 0; i < long(set.size()); ++i) evals[size_t(i)] = set.evaluate(size_t(i), w);
  return evals;
}

// The change in loss if parameter j moves by d, given the model's evaluations now.
double delta_loss(const TuningSet& set, const Columns& columns, const std::vector<double>& evals, int j,
                  double d, double k) {
  double delta = 0;
  for (const auto& [i, c] : columns[size_t(j)]) {
    const double r = set.result[i], before = r - sigmoid(evals[i], k),
                 after = r - sigmoid(evals[i] + c * d, k);
    delta += after * after - before * before;
  }
  return delta / double(set.size());
}

bool tunable(const TuneOptions& o, const Columns& columns, size_t j) {
  return !columns[j].empty() && (o.frozen.empty() || !o.frozen[j]);
}

}  // namespace

double loss(const TuningSet& set, const std::vector<double>& w, double k, size_t begin, size_t end) {
  if (end == 0) end = set.size();
  double sum = 0;
#pragma omp parallel for reduction(+ : sum) schedule(static)
  for (long i = long(begin); i < long(end); ++i) {
    const double error = set.result[size_t(i)] - sigmoid(set.evaluate(size_t(i), w), k);
    sum += error * error;
  }
  return end > begin ? sum / double(end - begin) : 0;
}

double objective(const TuningSet& set, const std::vector<double>& w, const TuneOptions& o) {
  double pull = 0;
  for (size_t j = 0; j < w.size(); ++j) pull += (w[j] - set.start[j]) * (w[j] - set.start[j]);
  return loss(set, w, o.k) + o.l2 * pull;
}

double fit_k(const TuningSet& set) {
  const double phi = (std::sqrt(5.0) - 1) / 2;
  double a = 0.05, b = 5.0;
  double c = b - phi * (b - a), d = a + phi * (b - a);
  double fc = loss(set, set.start, c), fd = loss(set, set.start, d);
  while (b - a > 1e-4) {
    if (fc < fd) {
      b = d, d = c, fd = fc;
      c = b - phi * (b - a);
      fc = loss(set, set.start, c);
    } else {
      a = c, c = d, fc = fd;
      d = a + phi * (b - a);
      fd = loss(set, set.start, d);
    }
  }
  return (a + b) / 2;
}

std::vector<double> tune_texel(const TuningSet& set, std::vector<double> w, const TuneOptions& o,
                               const Progress& progress) {
  const size_t n = w.size();
  const Columns columns = columns_of(set);
  std::vector<double> m(n, 0), v(n, 0);
  const double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-12, slope = std::log(10.0) * o.k / 400.0;
  long step = 0;
  for (int epoch = 1; epoch <= o.epochs; ++epoch) {
    for (size_t begin = 0; begin < set.size(); begin += o.batch) {
      const size_t end = std::min(set.size(), begin + o.batch);
      std::vector<double> gradient(n, 0);
#pragma omp parallel
      {
        std::vector<double> local(n, 0);
#pragma omp for schedule(static) nowait
        for (long i = long(begin); i < long(end); ++i) {
          const double s = sigmoid(set.evaluate(size_t(i), w), o.k);
          const double factor = 2 * (s - set.result[size_t(i)]) * s * (1 - s) * slope;
          for (uint32_t c = set.first[size_t(i)]; c < set.first[size_t(i) + 1]; ++c)
            local[set.coefficients[c].index] += factor * set.coefficients[c].value;
        }
#pragma omp critical
        for (size_t j = 0; j < n; ++j) gradient[j] += local[j];
      }
      ++step;
      for (size_t j = 0; j < n; ++j) {
        if (!tunable(o, columns, j)) continue;
        const double g = gradient[j] / double(end - begin) + 2 * o.l2 * (w[j] - set.start[j]);
        if (!o.adam) {
          w[j] -= o.rate * g;
          continue;
        }
        m[j] = beta1 * m[j] + (1 - beta1) * g;
        v[j] = beta2 * v[j] + (1 - beta2) * g * g;
        const double m_hat = m[j] / (1 - std::pow(beta1, double(step)));
        const double v_hat = v[j] / (1 - std::pow(beta2, double(step)));
        w[j] -= o.rate * m_hat / (std::sqrt(v_hat) + epsilon);
      }
    }
    if (progress) progress(epoch, loss(set, w, o.k), w);
  }
  return w;
}

std::vector<double> tune_hill(const TuningSet& set, std::vector<double> w, const TuneOptions& o,
                              const Progress& progress) {
  const Columns columns = columns_of(set);
  std::vector<double> evals = model_evals(set, w);
  double step = 8;
  for (int pass = 1; pass <= o.epochs; ++pass) {
    int improved = 0;
    for (size_t j = 0; j < w.size(); ++j) {
      if (!tunable(o, columns, j)) continue;
      for (double d : {step, -step}) {
        const double from = w[j] - set.start[j], pull = o.l2 * ((from + d) * (from + d) - from * from);
        if (delta_loss(set, columns, evals, int(j), d, o.k) + pull >= 0) continue;
        w[j] += d;
        for (const auto& [i, c] : columns[j]) evals[i] += c * d;
        ++improved;
        break;
      }
    }
    if (progress) progress(pass, loss(set, w, o.k), w);
    if (improved == 0) {
      if (step <= 1) break;  // a local optimum at the finest step
      step /= 2;
    }
  }
  return w;
}

std::vector<double> tune_ga(const TuningSet& set, std::vector<double> w, const TuneOptions& o,
                            const Progress& progress) {
  const Columns columns = columns_of(set);
  std::mt19937_64 rng(o.seed);
  std::normal_distribution<double> spread(0, 10), mutation(0, 4);
  std::uniform_real_distribution<double> unit(0, 1);
  const int size = std::max(o.population, 4);
  std::vector<std::vector<double>> population(size_t(size), w);
  for (int p = 1; p < size; ++p)  // the start itself, and variations of it
    for (size_t j = 0; j < w.size(); ++j)
      if (tunable(o, columns, j)) population[size_t(p)][j] += spread(rng);
  std::vector<double> fitness(static_cast<size_t>(size));
  auto evaluate_all = [&] {
    for (int p = 0; p < size; ++p) fitness[size_t(p)] = objective(set, population[size_t(p)], o);
  };
  evaluate_all();
  auto tournament = [&]() -> const std::vector<double>& {
    int best = int(rng() % size_t(size));
    for (int t = 0; t < 2; ++t) {
      int other = int(rng() % size_t(size));
      if (fitness[size_t(other)] < fitness[size_t(best)]) best = other;
    }
    return population[size_t(best)];
  };
  for (int generation = 1; generation <= o.epochs; ++generation) {
    std::vector<int> order(static_cast<size_t>(size));
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](int a, int b) { return fitness[size_t(a)] < fitness[size_t(b)]; });
    std::vector<std::vector<double>> next = {population[size_t(order[0])],
                                             population[size_t(order[1])]};  // elites
    while (int(next.size()) < size) {
      const std::vector<double>&a = tournament(), &b = tournament();
      std::vector<double> child = a;
      for (size_t j = 0; j < w.size(); ++j) {
        if (!tunable(o, columns, j)) continue;
        if (unit(rng) < 0.5) child[j] = b[j];
        if (unit(rng) < 0.05) child[j] += mutation(rng);
      }
      next.push_back(std::move(child));
    }
    population = std::move(next);
    evaluate_all();
    const size_t best = size_t(std::min_element(fitness.begin(), fitness.end()) - fitness.begin());
    if (progress) progress(generation, loss(set, population[best], o.k), population[best]);
  }
  return population[size_t(std::min_element(fitness.begin(), fitness.end()) - fitness.begin())];
}

std::vector<std::pair<int, double>> loss_curvature(const TuningSet& set, const std::vector<double>& w,
                                                   double k, double step) {
  const Columns columns = columns_of(set);
  const std::vector<double> evals = model_evals(set, w);
  std::vector<std::pair<int, double>> rise;
  for (size_t j = 0; j < w.size(); ++j) {
    if (columns[j].empty()) continue;
    const double up = delta_loss(set, columns, evals, int(j), step, k);
    const double down = delta_loss(set, columns, evals, int(j), -step, k);
    rise.emplace_back(int(j), (up + down) / 2);
  }
  std::sort(rise.begin(), rise.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  return rise;
}

}  // namespace vblitz::tune
