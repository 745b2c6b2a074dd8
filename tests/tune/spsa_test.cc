// SPSA: OpenBench's schedule, updates that climb a noisy comparison toward its optimum, and
// runs that repeat from their seed and resume to the same history.
#include "tune/spsa.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <limits>
#include <sstream>

#include "core/file.h"
#include "core/position.h"
#include "search/search_params.h"
#include "tests/test_support.h"

namespace vblitz::tune {
namespace {

std::string slurp(const std::string& path) {
  std::string text;
  EXPECT_FALSE(core::read_file(path, 1 << 24, text)) << path;
  return text;
}

TEST(Spsa, ScheduleEndsAtItsFinalStepAndRate) {
  SpsaOptions o;
  for (int n : {100, 2000, 50000}) {
    for (double c_end : {0.75, 3.0, 12.0, 1300.0}) {
      EXPECT_NEAR(spsa_c(c_end, n, n, o), c_end, 1e-9 * c_end);
      EXPECT_NEAR(spsa_r(c_end, n, n, o), o.r_end, 1e-12);
      EXPECT_GT(spsa_c(c_end, 1, n, o), c_end);  // larger steps early
      EXPECT_GT(spsa_r(c_end, 1, n, o), 0.0);
    }
    EXPECT_EQ(spsa_c(0.2, n, n, o), 0.5);  // integers: never below half a unit
  }
}

TEST(Spsa, PointsPerturbEveryParameterBothWaysInsideItsRange) {
  SpsaOptions o;
  o.iterations = 100;
  const std::vector<SpsaParam> params = spsa_params(o);
  ASSERT_EQ(params.size(), search::tunable_params().size());
  int differ = 0;
  for (int k = 1; k <= 20; ++k) {
    const SpsaPoint p = spsa_point(params, k, o);
    ASSERT_EQ(p.flip.size(), params.size());
    for (size_t i = 0; i < params.size(); ++i) {
      const int plus = p.plus.*params[i].field, minus = p.minus.*params[i].field;
      EXPECT_GE(plus, params[i].min);
      EXPECT_LE(plus, params[i].max);
      EXPECT_GE(minus, params[i].min);
      EXPECT_LE(minus, params[i].max);
      // plus sits on the flip's side of minus (or level with it after rounding).
      EXPECT_GE((plus - minus) * p.flip[i], 0) << params[i].name;
      differ += plus != minus;
    }
    // The same iteration draws the same point.
    const SpsaPoint again = spsa_point(params, k, o);
    EXPECT_EQ(again.flip, p.flip);
    EXPECT_TRUE(again.plus == p.plus && again.minus == p.minus);
  }
  EXPECT_GT(differ, int(params.size()) * 20 / 2);
}

// A noisy match whose winner is more often the setting nearer to 220: the tuned value climbs
// from 150 toward it (and a sign error in the update would push it away).
TEST(Spsa, UpdatesClimbANoisyComparisonTowardItsOptimum) {
  SpsaOptions o;
  o.only = {"reverse_futility_margin"};
  o.iterations = 4000;
  o.r_end = 0.01;
  std::vector<SpsaParam> params = spsa_params(o);
  ASSERT_EQ(params.size(), 1u);
  std::mt19937_64 noise(5);
  const auto strength = [](int v) { return -std::pow((v - 220) / 40.0, 2); };
  for (int k = 1; k <= o.iterations; ++k) {
    const SpsaPoint p = spsa_point(params, k, o);
    const double edge = strength(p.plus.reverse_futility_margin) - strength(p.minus.reverse_futility_margin);
    const double p_plus = 0.5 + 0.4 * std::tanh(edge);
    int result = 0;
    for (int game = 0; game < 8; ++game) {
      const double u = std::uniform_real_distribution<double>(0, 1)(noise);
      result += u < p_plus ? 1 : -1;
    }
    spsa_update(params, p, k, result, o);
  }
  EXPECT_GT(params[0].value, 195.0);
  EXPECT_LT(params[0].value, 245.0);
}

// The pairs run without a barrier, each from the values `lag` updates back, applied in order:
// one thread and three give the same history, and a cut history resumes to it.
TEST(Spsa, ThreadedRunsRepeatFromTheSeedOnAnyThreadCountAndResumeToTheSameHistory) {
  const std::filesystem::path root = std::filesystem::path(vblitz::test::temp_dir()) / "vblitz_spsa_test";
  std::filesystem::remove_all(root);
  SpsaOptions o;
  o.iterations = 8;
  o.lag = 3;
  o.nodes = 300;
  o.threads = 1;
  o.seed = 9;
  o.r_end = 0.5;  // steps of several units, so that which values a point starts from shows
  o.only = {"reverse_futility_margin", "futility_margin", "late_move_base"};
  std::ostringstream log;
  o.out_dir = (root / "a").string();
  ASSERT_EQ(run_spsa(o, log), 0) << log.str();
  o.out_dir = (root / "b").string();
  o.threads = 3;
  ASSERT_EQ(run_spsa(o, log), 0) << log.str();
  const std::string a = slurp((root / "a" / "spsa.csv").string());
  EXPECT_EQ(a, slurp((root / "b" / "spsa.csv").string()));
  EXPECT_EQ(std::count(a.begin(), a.end(), '\n'), 9);  // header and eight iterations
  // The same history as the pipeline's definition played in series: iteration k's point drawn
  // from the values after update k - lag (the declared ones before any), its pair played, the
  // updates applied in order. A run that drew each point from the latest values (no lag) or
  // applied results out of order would differ.
  std::vector<SpsaParam> params = spsa_params(o);
  std::vector<std::vector<double>> after(1);
  for (const SpsaParam& p : params) after[0].push_back(p.value);
  std::string serial = "iteration,result,reverse_futility_margin,futility_margin,late_move_base\n";
  int decisive = 0;
  for (int k = 1; k <= o.iterations; ++k) {
    std::vector<SpsaParam> from = params;
    for (size_t i = 0; i < from.size(); ++i) from[i].value = after[size_t(std::max(0, k - o.lag))][i];
    const SpsaPoint point = spsa_point(from, k, o);
    const int result = play_spsa_pair(point, k, {core::Position::kStartFen}, o);
    decisive += result != 0;
    spsa_update(params, point, k, result, o);
    after.emplace_back();
    std::ostringstream row;
    row << k << ',' << result;
    for (const SpsaParam& p : params) {
      after.back().push_back(p.value);
      row << ',' << std::setprecision(std::numeric_limits<double>::max_digits10) << p.value;
    }
    serial += row.str() + '\n';
  }
  EXPECT_EQ(a, serial);
  EXPECT_GT(decisive, 0);  // some pair moved the values

  // Cut b's history after five iterations and run again: it continues to the same file.
  o.out_dir = (root / "b").string();
  o.threads = 2;
  std::istringstream rows(a);
  std::string kept, line;
  for (int i = 0; i < 6 && std::getline(rows, line); ++i) kept += line + '\n';
  std::ofstream((root / "b" / "spsa.csv").string()) << kept;
  ASSERT_EQ(run_spsa(o, log), 0) << log.str();
  EXPECT_EQ(a, slurp((root / "b" / "spsa.csv").string()));
  EXPECT_EQ(slurp((root / "a" / "params.txt").string()), slurp((root / "b" / "params.txt").string()));

  // The values file loads as a SearchParamFile.
  search::SearchParams loaded;
  EXPECT_FALSE(search::read_search_params(slurp((root / "a" / "params.txt").string()), loaded));

  // Other options in the same directory are refused.
  o.nodes = 400;
  std::ostringstream refused;
  EXPECT_EQ(run_spsa(o, refused), 1);
  EXPECT_NE(refused.str().find("records another run"), std::string::npos) << refused.str();
  std::filesystem::remove_all(root);
}

TEST(Spsa, ArgumentsAreCheckedAndUnknownParametersRefused) {
  SpsaOptions o;
  EXPECT_FALSE(
      parse_spsa_args({"out", "--iterations", "10", "--params", "futility_margin,aspiration_window"}, o));
  EXPECT_EQ(o.iterations, 10);
  EXPECT_EQ(o.only.size(), 2u);
  EXPECT_TRUE(parse_spsa_args({"out", "--params", "no_such_thing"}, o));
  EXPECT_TRUE(parse_spsa_args({"out", "--iterations", "0"}, o));
  EXPECT_TRUE(parse_spsa_args({"out", "--r-end", "2"}, o));
  EXPECT_TRUE(parse_spsa_args({"--nodes", "5"}, o));
}

}  // namespace
}  // namespace vblitz::tune
