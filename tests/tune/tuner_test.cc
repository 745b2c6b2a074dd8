// The tuner: data-line formats, the linear model against the real evaluation, recovery of
// known weights, monotone gradient descent, hill climbing and the genetic algorithm, and an
// output file that ParamFile reads.
#include "tune/tuner.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "core/game.h"
#include "eval/evaluate.h"
#include "eval/param_blocks.h"
#include "tests/test_support.h"
#include "tune/tune_command.h"

namespace vblitz::test {
namespace {

TEST(TuneData, ReadsTheCommonResultAnnotations) {
  const std::string fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
  const std::pair<std::string, double> good[] = {{fen + " [1.0]", 1.0},
                                                 {fen + " [0.5]", 0.5},
                                                 {fen + " [0]", 0.0},
                                                 {fen + " c9 \"1-0\";", 1.0},
                                                 {fen + " c9 \"1/2-1/2\";", 0.5},
                                                 {fen + " 0.0", 0.0},
                                                 {"4k3/8/8/8/8/8/8/4K3 w - - c9 \"0-1\";", 0.0}};
  for (const auto& [line, expected] : good) {
    std::string parsed;
    auto result = tune::parse_data_line(line, parsed);
    ASSERT_TRUE(result) << line;
    EXPECT_EQ(*result, expected) << line;
    core::Game g;
    EXPECT_FALSE(g.set_fen(parsed)) << parsed;
  }
  std::string parsed;
  EXPECT_FALSE(tune::parse_data_line(fen + " [2.0]", parsed));
  EXPECT_FALSE(tune::parse_data_line(fen, parsed));
  EXPECT_EQ(tune::parameter_name(0), "material[0].mg");
  EXPECT_EQ(tune::to_vector(tune::to_params(tune::to_vector(eval::default_params()))),
            tune::to_vector(eval::default_params()));
}

// The perft suites' positions, labelled by the real evaluation under `truth` (soft labels).
std::vector<std::pair<std::string, double>> labelled_by(const eval::Params& truth, double k) {
  std::vector<std::pair<std::string, double>> data;
  eval::Evaluator evaluator(truth);
  eval::Trace trace;
  for (const std::string& fen : suite_fens()) {
    core::Game g;
    if (g.set_fen(fen)) continue;
    trace = eval::Trace{};
    const int e = evaluator.evaluate_white(g.position(), &trace);
    data.emplace_back(fen, 1.0 / (1.0 + std::pow(10.0, -k * e / 400.0)));
  }
  return data;
}

eval::Params modified_truth() {
  eval::Params truth = eval::default_params();
  truth.bishop_pair[0] = {60, 90};
  truth.mobility[0] = {5, 1};
  truth.rook_open_file[0] = {45, 25};
  return truth;
}

// The set labelled by modified_truth() with K = 1, linearized at the defaults.
tune::TuningSet truth_set() {
  return tune::build_tuning_set(labelled_by(modified_truth(), 1.0), eval::default_params());
}

tune::TuneOptions options(int epochs) {
  tune::TuneOptions o;
  o.k = 1.0;
  o.epochs = epochs;
  return o;
}

TEST(Tuner, TheLinearModelFollowsTheRealEvaluation) {
  const auto data = labelled_by(eval::default_params(), 1.0);
  ASSERT_GT(data.size(), 500u);
  const tune::TuningSet set = tune::build_tuning_set(data, eval::default_params());
  const eval::Params truth = modified_truth();
  const std::vector<double> w = tune::to_vector(truth);
  eval::Evaluator evaluator(truth);
  eval::Trace trace;
  int far = 0;
  for (size_t i = 0; i < set.size(); ++i) {
    core::Game g;
    ASSERT_FALSE(g.set_fen(data[i].first));
    trace = eval::Trace{};
    const double real = evaluator.evaluate_white(g.position(), &trace);
    far += std::abs(set.evaluate(i, w) - real) > 4;  // integer rounding of tapering and scaling
  }
  EXPECT_LT(far, int(set.size() / 50)) << far << " of " << set.size();
}

TEST(Tuner, RecoversKnownWeightsFromTheirOwnLabels) {
  const double k = 1.0;
  const eval::Params truth = modified_truth();
  const tune::TuningSet set = tune::build_tuning_set(labelled_by(truth, k), eval::default_params());
  tune::TuneOptions o;
  o.k = k;
  o.epochs = 300;
  o.batch = set.size();
  o.rate = 0.5;
  // Only the changed terms move: with every term free, related ones (bishop placement and
  // mobility, say) can share the difference and fit the labels equally well.
  o.frozen.assign(set.start.size(), true);
  for (int j = 0; j < tune::parameter_count(); ++j) {
    const std::string name = tune::parameter_name(j);
    if (name.rfind("bishop_pair.", 0) == 0 || name.rfind("mobility.", 0) == 0 ||
        name.rfind("rook_open_file[0]", 0) == 0)
      o.frozen[size_t(j)] = false;
  }
  const double before = tune::loss(set, set.start, k);
  const std::vector<double> w = tune::tune_texel(set, set.start, o, nullptr);
  EXPECT_LT(tune::loss(set, w, k), before / 20);
  const eval::Params fitted = tune::to_params(w);
  EXPECT_NEAR(fitted.bishop_pair[0].mg, 60, 6);
  EXPECT_NEAR(fitted.bishop_pair[0].eg, 90, 6);
  EXPECT_NEAR(fitted.mobility[0].mg, 5, 1);
  EXPECT_NEAR(fitted.mobility[0].eg, 1, 1);
  EXPECT_NEAR(fitted.rook_open_file[0].mg, 45, 6);
  EXPECT_NEAR(fitted.rook_open_file[0].eg, 25, 6);
}

TEST(Tuner, GradientDescentAtASmallRateNeverRaisesTheLoss) {
  const tune::TuningSet set = truth_set();
  tune::TuneOptions o = options(30);
  o.adam = false;
  o.rate = 1e3;
  o.batch = set.size();
  double last = tune::loss(set, set.start, o.k);
  const double first = last;
  tune::tune_texel(set, set.start, o, [&](int epoch, double l, const std::vector<double>&) {
    EXPECT_LE(l, last) << "epoch " << epoch;
    last = l;
  });
  EXPECT_LT(last, first);
}

TEST(Tuner, AStrongL2PullKeepsTheStartingValues) {
  const tune::TuningSet set = truth_set();
  tune::TuneOptions o = options(20);
  o.batch = set.size();
  o.l2 = 1.0;  // far above the loss's own slope
  for (auto method : {&tune::tune_texel, &tune::tune_hill}) {
    const std::vector<double> w = method(set, set.start, o, nullptr);
    for (size_t j = 0; j < w.size(); ++j)
      EXPECT_NEAR(w[j], set.start[j], 1.0) << tune::parameter_name(int(j));
  }
}

TEST(Tuner, HillClimbingAndTheGeneticAlgorithmImproveMonotonically) {
  const tune::TuningSet set = truth_set();
  const tune::TuneOptions o = options(8);
  const double start = tune::loss(set, set.start, o.k);
  for (auto method : {&tune::tune_hill, &tune::tune_ga}) {
    double last = start;
    const std::vector<double> w =
        method(set, set.start, o, [&](int epoch, double l, const std::vector<double>&) {
          EXPECT_LE(l, last + 1e-12) << "epoch " << epoch;  // hill keeps only gains; the GA keeps its elite
          last = l;
        });
    EXPECT_LT(tune::loss(set, w, o.k), start);
  }
}

TEST(Tuner, CommandWritesAParameterFileThatLoadsAndAResumableCheckpoint) {
  const std::string data = temp_dir() + "/vblitz_tune_data.txt";
  {
    std::ofstream f(data);
    for (const auto& [fen, r] : labelled_by(modified_truth(), 1.0))
      f << fen << (r > 0.6 ? " [1.0]\n" : r < 0.4 ? " [0.0]\n" : " [0.5]\n");
    f << "not a position\n";
  }
  const std::string out = temp_dir() + "/vblitz_tuned.txt";
  std::ostringstream log;
  ASSERT_EQ(tune::run_tune_command({data, "--out", out, "--epochs", "2", "--threads", "2"}, log), 0)
      << log.str();
  EXPECT_NE(log.str().find("1 unreadable lines skipped"), std::string::npos) << log.str();
  EXPECT_NE(log.str().find("texel epoch 2: loss"), std::string::npos) << log.str();
  EXPECT_NE(log.str().find("noisy terms"), std::string::npos) << log.str();
  std::ifstream tuned(out);
  std::stringstream text;
  text << tuned.rdbuf();
  eval::ParamSet set = eval::default_param_set();
  EXPECT_FALSE(eval::read_param_set(text.str(), set));

  std::ostringstream resumed;
  ASSERT_EQ(
      tune::run_tune_command({data, "--out", out, "--epochs", "1", "--resume", out + ".checkpoint"}, resumed),
      0);
  EXPECT_NE(resumed.str().find("texel epoch 3: loss"), std::string::npos) << resumed.str();
  std::ostringstream bad;
  EXPECT_EQ(tune::run_tune_command({data, "--method", "simplex", "--out", out}, bad), 2);
}

}  // namespace
}  // namespace vblitz::test
