// The network trainer: its float evaluation against the engine's integer evaluation of the
// quantized network, the loss falling on real self-play data, resuming from a checkpoint
// giving the uninterrupted run's network, and quantization refusing overflow.
#include "tune/network_trainer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/game.h"
#include "core/prng.h"
#include "data/data_command.h"
#include "data/datagen.h"
#include "tests/test_support.h"

namespace vblitz::test {
namespace {

// A float network with weights of the size training produces (docs/network.md).
tune::FloatNetwork trained_size_network(int hidden, uint64_t seed, int buckets = 1) {
  tune::FloatNetwork net = tune::FloatNetwork::random(hidden, seed, buckets);
  core::Prng rng(seed + 1);
  auto uniform = [&](float range) { return range * (float(rng.below(2001)) / 1000.0f - 1.0f); };
  for (float& w : net.feature_weights) w = uniform(0.2f);
  for (float& w : net.feature_bias) w = 0.2f + uniform(0.1f);
  for (float& w : net.output_weights) w = uniform(0.5f);
  for (float& b : net.output_bias) b = 0.3f + uniform(0.2f);
  return net;
}

class FloatAgainstInteger : public ::testing::TestWithParam<int> {};

// With one output bucket and with eight, whose weights differ from bucket to bucket.
TEST_P(FloatAgainstInteger, FloatEvaluationMatchesTheEnginesIntegerEvaluation) {
  const tune::FloatNetwork net = trained_size_network(32, 3, GetParam());
  eval::Network quantized;
  ASSERT_FALSE(net.quantize(quantized));
  ASSERT_EQ(quantized.output_buckets, GetParam());
  int positions = 0, worst = 0;
  double total = 0;
  for (const std::string& fen : suite_fens()) {
    core::Game game;
    ASSERT_FALSE(game.set_fen(fen));
    const int float_cp = net.evaluate(game.position());
    const int integer_cp = eval::evaluate_network(quantized, game.position());
    if (std::abs(float_cp) >= eval::kMaxNetworkScore) continue;
    worst = std::max(worst, std::abs(float_cp - integer_cp));
    total += std::abs(float_cp - integer_cp);
    ++positions;
  }
  EXPECT_GT(positions, 1000);
  // The stated tolerance (docs/network.md): rounding the output weights to 1/64 and the first
  // layer to 1/255 moves a score by at most 25 cp and by 6 cp on average at these weights
  // (4.4 cp with one bucket, 5.1 cp with eight).
  EXPECT_LE(worst, 25);
  EXPECT_LE(total / positions, 6.0);
  std::cout << "float vs integer: worst " << worst << " cp, mean " << total / positions << " cp over "
            << positions << " positions\n";
}

INSTANTIATE_TEST_SUITE_P(OutputBuckets, FloatAgainstInteger, ::testing::Values(1, 8));

TEST(NetworkTrainer, QuantizationRefusesNetworksThatCouldOverflow) {
  tune::FloatNetwork net = trained_size_network(16, 4);
  eval::Network quantized;
  EXPECT_FALSE(net.quantize(quantized));
  for (float& w : net.feature_weights) w = 1.98f;  // 32 rows of 505 plus the bias: still fits
  EXPECT_FALSE(net.quantize(quantized));
  for (float& w : net.feature_bias) w = 100.0f;  // 25500 + 32 * 505 does not
  EXPECT_TRUE(net.quantize(quantized));
}

// --init: an engine network's float weights quantize back to the same file, a network with one
// output bucket seeds every bucket (evaluating as it does), and other bucket counts are refused.
TEST(NetworkTrainer, StartsFromAnEngineNetwork) {
  eval::Network engine;
  ASSERT_FALSE(trained_size_network(32, 5).quantize(engine));
  tune::FloatNetwork f;
  ASSERT_FALSE(tune::FloatNetwork::from_network(engine, 1, {}, f));
  eval::Network again;
  ASSERT_FALSE(f.quantize(again));
  EXPECT_EQ(again.serialize(), engine.serialize());

  ASSERT_FALSE(tune::FloatNetwork::from_network(engine, 8, {}, f));
  ASSERT_FALSE(f.quantize(again));
  EXPECT_EQ(again.output_buckets, 8);
  int positions = 0;
  for (const std::string& fen : suite_fens()) {
    core::Game game;
    ASSERT_FALSE(game.set_fen(fen));
    ASSERT_EQ(eval::evaluate_network(again, game.position()), eval::evaluate_network(engine, game.position()))
        << fen;
    ++positions;
  }
  EXPECT_GT(positions, 1000);
  EXPECT_TRUE(tune::FloatNetwork::from_network(again, 4, {}, f));
}

// A widened network evaluates exactly as the narrower one it came from, with one output bucket
// and with eight, and its new values are not all alike (training can tell them apart).
TEST(NetworkTrainer, WideningKeepsTheOutput) {
  for (int buckets : {1, 8}) {
    const tune::FloatNetwork narrow = trained_size_network(32, 6, buckets);
    const tune::FloatNetwork wide = narrow.widened(96, 7);
    ASSERT_EQ(wide.hidden, 96);
    ASSERT_EQ(wide.output_buckets, buckets);
    int positions = 0;
    for (const std::string& fen : suite_fens()) {
      core::Game game;
      ASSERT_FALSE(game.set_fen(fen));
      std::vector<int> us, them;
      const core::Position& pos = game.position();
      for (core::Bitboard b = pos.pieces(); b; b &= b - 1) {
        const core::Square s = core::lsb(b);
        us.push_back(eval::feature_index(pos.side_to_move(), pos.piece_on(s), s));
        them.push_back(eval::feature_index(~pos.side_to_move(), pos.piece_on(s), s));
      }
      ASSERT_EQ(wide.forward(us, them), narrow.forward(us, them)) << fen;
      ++positions;
    }
    EXPECT_GT(positions, 1000);
    EXPECT_NE(wide.feature_weights[40], wide.feature_weights[41]);  // two new values of feature 0
  }
}

// A small packed data set from real self-play, made once.
const std::string& small_data_dir() {
  static const std::string dir = [] {
    data::DatagenOptions o;
    o.out_path = temp_dir() + "/vblitz_trainer_data";
    std::filesystem::remove_all(o.out_path);  // a run of an earlier build may have left it
    o.format = data::DataFormat::kPacked;
    o.games = 24;
    o.shard_games = 8;
    o.nodes = 400;
    o.threads = 2;
    o.min_ply = 8;
    std::ostringstream log;
    EXPECT_EQ(data::run_datagen(o, log), 0) << log.str();
    return o.out_path;
  }();
  return dir;
}

// The training loss of each epoch of the run that wrote `out_path` (its OUT.loss.csv).
std::vector<double> training_losses(const std::string& out_path) {
  std::ifstream curve(out_path + ".loss.csv");
  std::string line;
  std::getline(curve, line);  // the header
  std::vector<double> losses;
  while (std::getline(curve, line)) losses.push_back(std::stod(line.substr(line.find(',') + 1)));
  return losses;
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Trains `o` for `split` epochs, then resumes from the checkpoint to o.epochs: the network must
// be the one `o` wrote in one run, byte for byte.
void expect_resuming_gives_the_same_network(const tune::TrainOptions& o, int split, const std::string& name,
                                            std::ostream& log) {
  tune::TrainOptions first = o;
  first.out_path = temp_dir() + "/" + name + ".nnue";
  first.stop_after = split;
  std::filesystem::remove(first.out_path);
  ASSERT_EQ(tune::run_train(first, log), 0);
  ASSERT_FALSE(std::filesystem::exists(first.out_path)) << "stopped early, so no network";
  tune::TrainOptions second = first;
  second.stop_after = 0;
  second.resume_path = first.out_path + ".checkpoint";
  ASSERT_EQ(tune::run_train(second, log), 0);
  EXPECT_EQ(file_bytes(second.out_path), file_bytes(o.out_path));
}

// small_data_dir() prepared for training (train.vbd, validation.vbd), made once.
const std::string& prepared_dir() {
  static const std::string dir = [] {
    const std::string prepared = temp_dir() + "/vblitz_trainer_prepared";
    std::ostringstream out, err;
    EXPECT_EQ(
        data::run_data_command({"prepare", prepared, small_data_dir(), "--validation", "0.1"}, out, err), 0)
        << err.str();
    return prepared;
  }();
  return dir;
}

// A small network trained for `epochs` on prepared_dir(), written to temp_dir()/NAME.nnue.
tune::TrainOptions small_training(const std::string& name, int epochs) {
  tune::TrainOptions o;
  o.data_path = prepared_dir() + "/train.vbd";
  o.validation_path = prepared_dir() + "/validation.vbd";
  o.out_path = temp_dir() + "/" + name + ".nnue";
  o.hidden = 8;
  o.learning_rate = 0.01;
  o.epochs = epochs;
  o.batch = 256;
  o.threads = 2;
  return o;
}

// An empty validation file is refused (before, it trained and reported a validation loss of 0).
TEST(NetworkTrainer, AnEmptyValidationFileIsRefused) {
  tune::TrainOptions o = small_training("vblitz_no_validation", 1);
  o.validation_path = temp_dir() + "/empty_validation.vbd";
  std::ofstream(o.validation_path, std::ios::binary).flush();
  std::ostringstream log;
  EXPECT_EQ(tune::run_train(o, log), 1);
  EXPECT_NE(log.str().find("no validation positions"), std::string::npos) << log.str();
}

TEST(NetworkTrainer, TrainingLowersTheLossAndResumingGivesTheSameNetwork) {
  std::vector<data::PackedPosition> records;
  ASSERT_FALSE(data::read_packed({small_data_dir()}, records));
  ASSERT_GT(records.size(), 500u);
  const tune::TrainOptions o = small_training("vblitz_whole", 6);
  std::ostringstream log;
  ASSERT_EQ(tune::run_train(o, log), 0) << log.str();

  // The loss curve: the last epoch's training loss is below the first's.
  std::vector<double> losses = training_losses(o.out_path);
  ASSERT_EQ(losses.size(), 6u);
  EXPECT_LT(losses.back(), losses.front() * 0.9) << log.str();

  // Three epochs, then three more from the checkpoint: the same network, byte for byte.
  expect_resuming_gives_the_same_network(o, 3, "vblitz_split", log);
  ASSERT_FALSE(HasFatalFailure()) << log.str();

  // The cosine schedule lowers the loss too, trains another network, and resumes exactly.
  tune::TrainOptions cosine = o;
  cosine.schedule = tune::TrainOptions::Schedule::kCosine;
  cosine.out_path = temp_dir() + "/vblitz_cosine.nnue";
  ASSERT_EQ(tune::run_train(cosine, log), 0) << log.str();
  const std::vector<double> cosine_losses = training_losses(cosine.out_path);
  ASSERT_EQ(cosine_losses.size(), 6u);
  EXPECT_LT(cosine_losses.back(), cosine_losses.front() * 0.9) << log.str();
  EXPECT_NE(file_bytes(cosine.out_path), file_bytes(o.out_path));
  expect_resuming_gives_the_same_network(cosine, 2, "vblitz_cosine_split", log);
  ASSERT_FALSE(HasFatalFailure()) << log.str();
  auto bytes = file_bytes;

  eval::Network loaded;
  EXPECT_FALSE(loaded.parse(bytes(o.out_path)));
  EXPECT_EQ(loaded.hidden, 8);
  EXPECT_EQ(loaded.output_buckets, 1);

  // With output buckets: the loss falls too, the file has them, and a checkpoint of another
  // shape is refused.
  tune::TrainOptions bucketed = o;
  bucketed.out_path = temp_dir() + "/vblitz_buckets.nnue";
  bucketed.output_buckets = 4;
  ASSERT_EQ(tune::run_train(bucketed, log), 0) << log.str();
  losses = training_losses(bucketed.out_path);
  ASSERT_EQ(losses.size(), 6u);
  EXPECT_LT(losses.back(), losses.front() * 0.9) << log.str();
  EXPECT_FALSE(loaded.parse(bytes(bucketed.out_path)));
  EXPECT_EQ(loaded.output_buckets, 4);
  tune::TrainOptions mismatched = bucketed;
  mismatched.output_buckets = 2;
  mismatched.epochs = 7;
  mismatched.resume_path = bucketed.out_path + ".checkpoint";
  std::ostringstream refusal;
  EXPECT_EQ(tune::run_train(mismatched, refusal), 1);
  EXPECT_NE(refusal.str().find("output buckets"), std::string::npos) << refusal.str();

  // Starting from the one-bucket network, as it is and widened to 16 hidden values: the first
  // epoch's loss is already that network's (far below a random start's); a network wider than
  // --hidden is refused.
  tune::TrainOptions init = bucketed;
  init.init_path = o.out_path;
  init.epochs = 1;
  for (int hidden : {8, 16}) {
    init.hidden = hidden;
    init.out_path = temp_dir() + "/vblitz_init" + std::to_string(hidden) + ".nnue";
    ASSERT_EQ(tune::run_train(init, log), 0) << log.str();
    const double init_loss = training_losses(init.out_path).at(0);
    EXPECT_LT(init_loss, losses.front() * 0.9) << hidden;
    EXPECT_FALSE(loaded.parse(bytes(init.out_path)));
    EXPECT_EQ(loaded.hidden, hidden);
  }
  init.hidden = 4;
  std::ostringstream width;
  EXPECT_EQ(tune::run_train(init, width), 1);
  EXPECT_NE(width.str().find("hidden"), std::string::npos) << width.str();
}

// The schedules against their formulas: the step drops at drop_epoch (70% of the epochs by
// default); the cosine starts at the rate, passes the mean of the two ends half-way, falls
// at every batch and ends at rate * drop.
TEST(NetworkTrainer, LearningRateSchedules) {
  tune::TrainOptions o;
  o.learning_rate = 0.002;
  o.drop = 0.1;
  o.epochs = 10;
  EXPECT_DOUBLE_EQ(tune::scheduled_rate(o, 0, 0.0), 0.002);
  EXPECT_DOUBLE_EQ(tune::scheduled_rate(o, 6, 0.99), 0.002);
  EXPECT_DOUBLE_EQ(tune::scheduled_rate(o, 7, 0.0), 0.0002);
  o.drop_epoch = 3;
  EXPECT_DOUBLE_EQ(tune::scheduled_rate(o, 2, 0.5), 0.002);
  EXPECT_DOUBLE_EQ(tune::scheduled_rate(o, 3, 0.0), 0.0002);
  o.schedule = tune::TrainOptions::Schedule::kCosine;
  EXPECT_DOUBLE_EQ(tune::scheduled_rate(o, 0, 0.0), 0.002);
  EXPECT_NEAR(tune::scheduled_rate(o, 5, 0.0), 0.0011, 1e-12);
  EXPECT_NEAR(tune::scheduled_rate(o, 9, 1.0), 0.0002, 1e-12);
  EXPECT_NEAR(tune::scheduled_rate(o, 2, 0.5), 0.0002 + 0.0018 * 0.5 * (1 + std::cos(std::acos(-1.0) * 0.25)),
              1e-12);
  double previous = 1;
  for (int epoch = 0; epoch < o.epochs; ++epoch)
    for (double done : {0.0, 0.25, 0.5, 0.75}) {
      const double rate = tune::scheduled_rate(o, epoch, done);
      EXPECT_LT(rate, previous) << epoch << " " << done;
      previous = rate;
    }
}

TEST(NetworkTrainer, MirroredFeaturesAreThoseOfTheMirroredPosition) {
  int positions = 0;
  for (const std::string& fen : suite_fens()) {
    core::Game game, mirrored;
    ASSERT_FALSE(game.set_fen(fen));
    ASSERT_FALSE(mirrored.set_fen(mirror_files(fen))) << fen;
    const auto a = data::PackedPosition::pack(game.position(), 0, data::GameResult::kDraw);
    const auto b = data::PackedPosition::pack(mirrored.position(), 0, data::GameResult::kDraw);
    std::vector<int> us, them, mirror_us, mirror_them;
    tune::record_features(a, {}, us, them, true);
    tune::record_features(b, {}, mirror_us, mirror_them);
    std::sort(us.begin(), us.end());
    std::sort(them.begin(), them.end());
    std::sort(mirror_us.begin(), mirror_us.end());
    std::sort(mirror_them.begin(), mirror_them.end());
    ASSERT_EQ(us, mirror_us) << fen;
    ASSERT_EQ(them, mirror_them) << fen;
    ++positions;
  }
  EXPECT_GT(positions, 1000);
}

TEST(NetworkTrainer, ParsesItsArguments) {
  tune::TrainOptions o;
  ASSERT_FALSE(tune::parse_train_args({"d.vbd", "--out", "n.nnue", "--hidden", "48", "--lambda", "0.5"}, o));
  EXPECT_EQ(o.hidden, 48);
  EXPECT_DOUBLE_EQ(o.lambda, 0.5);
  auto refused = [](const std::vector<std::string>& args) {
    tune::TrainOptions fresh;
    return tune::parse_train_args(args, fresh).has_value();
  };
  EXPECT_TRUE(refused({"d.vbd"}));  // no --out
  EXPECT_TRUE(refused({"d.vbd", "--out", "n", "--hidden", "0"}));
  EXPECT_TRUE(refused({"d.vbd", "--out", "n", "--lambda", "1.5"}));
  EXPECT_TRUE(refused({"d.vbd", "--out", "n", "--epochs", "2.5"}));
  EXPECT_TRUE(refused({"d.vbd", "--out", "n", "--bogus", "1"}));
  EXPECT_TRUE(refused({"d.vbd", "--out", "n", "--mirror", "2"}));
  EXPECT_TRUE(refused({"d.vbd", "--out", "n", "--output-buckets", "0"}));
  EXPECT_TRUE(refused({"d.vbd", "--out", "n", "--output-buckets", "9"}));
  ASSERT_FALSE(tune::parse_train_args({"d.vbd", "--out", "n", "--output-buckets", "8"}, o));
  EXPECT_EQ(o.output_buckets, 8);
  EXPECT_TRUE(refused({"d.vbd", "--out", "n", "--schedule", "linear"}));
  EXPECT_TRUE(refused({"d.vbd", "--out", "n", "--stop-after", "0"}));
  ASSERT_FALSE(
      tune::parse_train_args({"d.vbd", "--out", "n", "--schedule", "cosine", "--stop-after", "3"}, o));
  EXPECT_EQ(o.schedule, tune::TrainOptions::Schedule::kCosine);
  EXPECT_EQ(o.stop_after, 3);
  ASSERT_FALSE(tune::parse_train_args({"d.vbd", "--out", "n", "--mirror", "1"}, o));
  EXPECT_TRUE(o.mirror);
  EXPECT_TRUE(refused({"d.vbd", "--out", "n", "--king-buckets", "5"}));
  EXPECT_TRUE(refused({"d.vbd", "--out", "n", "--king-buckets", "0,1"}));
  ASSERT_FALSE(tune::parse_train_args({"d.vbd", "--out", "n", "--king-buckets", "4"}, o));
  EXPECT_EQ(o.kings.count, 4);
  EXPECT_TRUE(o.kings.mirrored);
}

eval::KingBuckets layout(const std::string& name) {
  eval::KingBuckets k;
  EXPECT_FALSE(eval::KingBuckets::parse(name, k));
  return k;
}

// With king buckets and shared rows: the float evaluation (bucket row plus shared row) matches
// the engine's integer evaluation of the quantized network, whose rows fold the shared ones in.
TEST(NetworkTrainer, KingBucketsAndSharedRowsMatchTheIntegerEvaluation) {
  tune::FloatNetwork net = trained_size_network(32, 31, 8);
  const tune::FloatNetwork plain = net;
  net = tune::FloatNetwork::random(32, 31, 8, layout("8"));
  ASSERT_EQ(net.factor_weights.size(), 768 * 32u);
  ASSERT_EQ(net.feature_weights.size(), 8 * 768 * 32u);
  core::Prng rng(32);
  auto uniform = [&](float range) { return range * (float(rng.below(2001)) / 1000.0f - 1.0f); };
  for (float& w : net.feature_weights) w = uniform(0.1f);
  for (float& w : net.factor_weights) w = uniform(0.1f);
  net.feature_bias = plain.feature_bias;
  net.output_weights = plain.output_weights;
  net.output_bias = plain.output_bias;
  eval::Network quantized;
  ASSERT_FALSE(net.quantize(quantized));
  EXPECT_TRUE(quantized.kings == layout("8"));
  int positions = 0, worst = 0;
  for (const std::string& fen : suite_fens()) {
    core::Game game;
    ASSERT_FALSE(game.set_fen(fen));
    const int float_cp = net.evaluate(game.position());
    if (std::abs(float_cp) >= eval::kMaxNetworkScore) continue;
    worst = std::max(worst, std::abs(float_cp - eval::evaluate_network(quantized, game.position())));
    ++positions;
  }
  EXPECT_GT(positions, 1000);
  EXPECT_LE(worst, 25);

  // Back to floats: the shared rows are zero and the buckets' rows hold the sums, which
  // quantize to the same file.
  tune::FloatNetwork back;
  ASSERT_FALSE(tune::FloatNetwork::from_network(quantized, 8, layout("8"), back));
  eval::Network again;
  ASSERT_FALSE(back.quantize(again));
  EXPECT_EQ(again.serialize(), quantized.serialize());
  EXPECT_TRUE(tune::FloatNetwork::from_network(quantized, 8, layout("4"), back));  // another layout
}

// A network without king buckets seeds the shared rows; the buckets start at zero, so every
// position whose kings are on files a-d (where mirroring changes nothing) scores as before.
TEST(NetworkTrainer, APlainNetworkSeedsTheSharedRows) {
  eval::Network engine;
  ASSERT_FALSE(trained_size_network(32, 33, 8).quantize(engine));
  tune::FloatNetwork f;
  ASSERT_FALSE(tune::FloatNetwork::from_network(engine, 8, layout("4"), f));
  EXPECT_TRUE(
      std::all_of(f.feature_weights.begin(), f.feature_weights.end(), [](float w) { return w == 0; }));
  eval::Network bucketed;
  ASSERT_FALSE(f.quantize(bucketed));
  int same = 0;
  for (const std::string& fen : suite_fens()) {
    core::Game game;
    ASSERT_FALSE(game.set_fen(fen));
    const core::Position& pos = game.position();
    if (core::file_of(pos.king_square(core::WHITE)) >= 4 || core::file_of(pos.king_square(core::BLACK)) >= 4)
      continue;
    ASSERT_EQ(eval::evaluate_network(bucketed, pos), eval::evaluate_network(engine, pos)) << fen;
    ++same;
  }
  EXPECT_GT(same, 100);
}

// Training with king buckets: the loss falls, resuming gives the same network, the file has
// the layout, and a checkpoint of another layout is refused.
TEST(NetworkTrainer, TrainsKingBuckets) {
  tune::TrainOptions o = small_training("vblitz_kings", 4);
  o.kings = layout("4");
  std::ostringstream log;
  ASSERT_EQ(tune::run_train(o, log), 0) << log.str();
  const std::vector<double> losses = training_losses(o.out_path);
  ASSERT_EQ(losses.size(), 4u);
  EXPECT_LT(losses.back(), losses.front() * 0.9) << log.str();
  expect_resuming_gives_the_same_network(o, 2, "vblitz_kings_split", log);
  ASSERT_FALSE(HasFatalFailure()) << log.str();
  eval::Network loaded;
  ASSERT_FALSE(loaded.parse(file_bytes(o.out_path)));
  EXPECT_TRUE(loaded.kings == layout("4"));

  tune::TrainOptions other = o;
  other.kings = layout("8");
  other.epochs = 5;
  other.resume_path = temp_dir() + "/vblitz_kings_split.nnue.checkpoint";
  std::ostringstream refusal;
  EXPECT_EQ(tune::run_train(other, refusal), 1);
  EXPECT_NE(refusal.str().find("king buckets"), std::string::npos) << refusal.str();
}

}  // namespace
}  // namespace vblitz::test
