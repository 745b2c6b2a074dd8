// The network trainer: its float evaluation against the engine's integer evaluation of the
// quantized network, the loss falling on real self-play data, resuming from a checkpoint
// giving the uninterrupted run's network, and quantization refusing overflow.
#include "tune/network_trainer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/game.h"
#include "core/prng.h"
#include "tests/test_support.h"
#include "tune/data_command.h"
#include "tune/datagen.h"

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
  ASSERT_FALSE(tune::FloatNetwork::from_network(engine, 1, f));
  eval::Network again;
  ASSERT_FALSE(f.quantize(again));
  EXPECT_EQ(again.serialize(), engine.serialize());

  ASSERT_FALSE(tune::FloatNetwork::from_network(engine, 8, f));
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
  EXPECT_TRUE(tune::FloatNetwork::from_network(again, 4, f));
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
    tune::DatagenOptions o;
    o.out_path = ::testing::TempDir() + "/vblitz_trainer_data";
    std::filesystem::remove_all(o.out_path);  // a run of an earlier build may have left it
    o.format = tune::DataFormat::kPacked;
    o.games = 24;
    o.shard_games = 8;
    o.nodes = 400;
    o.threads = 2;
    o.min_ply = 8;
    std::ostringstream log;
    EXPECT_EQ(tune::run_datagen(o, log), 0) << log.str();
    return o.out_path;
  }();
  return dir;
}

TEST(NetworkTrainer, TrainingLowersTheLossAndResumingGivesTheSameNetwork) {
  std::vector<tune::PackedPosition> records;
  ASSERT_FALSE(tune::read_packed({small_data_dir()}, records));
  ASSERT_GT(records.size(), 500u);
  const std::string prepared = ::testing::TempDir() + "/vblitz_trainer_prepared";
  const std::string train = prepared + "/train.vbd";
  std::ostringstream out, err;
  ASSERT_EQ(tune::run_data_command({"prepare", prepared, small_data_dir(), "--validation", "0.1"}, out, err),
            0)
      << err.str();

  tune::TrainOptions o;
  o.data_path = train;
  o.validation_path = prepared + "/validation.vbd";
  o.out_path = ::testing::TempDir() + "/vblitz_whole.nnue";
  o.hidden = 8;
  o.learning_rate = 0.01;
  o.epochs = 6;
  o.batch = 256;
  o.threads = 2;
  std::ostringstream log;
  ASSERT_EQ(tune::run_train(o, log), 0) << log.str();

  // The loss curve: the last epoch's training loss is below the first's.
  std::ifstream curve(o.out_path + ".loss.csv");
  std::string header, line;
  std::getline(curve, header);
  std::vector<double> losses;
  while (std::getline(curve, line)) losses.push_back(std::stod(line.substr(line.find(',') + 1)));
  ASSERT_EQ(losses.size(), 6u);
  EXPECT_LT(losses.back(), losses.front() * 0.9) << log.str();

  // Three epochs, then three more from the checkpoint: the same network, byte for byte.
  tune::TrainOptions first = o;
  first.out_path = ::testing::TempDir() + "/vblitz_split.nnue";
  first.epochs = 3;
  first.drop_epoch = o.epochs * 7 / 10;  // the schedule of the six-epoch run
  ASSERT_EQ(tune::run_train(first, log), 0) << log.str();
  tune::TrainOptions second = first;
  second.epochs = 6;
  second.resume_path = first.out_path + ".checkpoint";
  ASSERT_EQ(tune::run_train(second, log), 0) << log.str();
  auto bytes = [](const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  };
  EXPECT_EQ(bytes(second.out_path), bytes(o.out_path));

  eval::Network loaded;
  EXPECT_FALSE(loaded.parse(bytes(o.out_path)));
  EXPECT_EQ(loaded.hidden, 8);
  EXPECT_EQ(loaded.output_buckets, 1);

  // With output buckets: the loss falls too, the file has them, and a checkpoint of another
  // shape is refused.
  tune::TrainOptions bucketed = o;
  bucketed.out_path = ::testing::TempDir() + "/vblitz_buckets.nnue";
  bucketed.output_buckets = 4;
  ASSERT_EQ(tune::run_train(bucketed, log), 0) << log.str();
  std::ifstream bucketed_curve(bucketed.out_path + ".loss.csv");
  std::getline(bucketed_curve, header);
  losses.clear();
  while (std::getline(bucketed_curve, line)) losses.push_back(std::stod(line.substr(line.find(',') + 1)));
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
    init.out_path = ::testing::TempDir() + "/vblitz_init" + std::to_string(hidden) + ".nnue";
    ASSERT_EQ(tune::run_train(init, log), 0) << log.str();
    std::ifstream init_curve(init.out_path + ".loss.csv");
    std::getline(init_curve, header);
    std::getline(init_curve, line);
    const double init_loss = std::stod(line.substr(line.find(',') + 1));
    EXPECT_LT(init_loss, losses.front() * 0.9) << hidden;
    EXPECT_FALSE(loaded.parse(bytes(init.out_path)));
    EXPECT_EQ(loaded.hidden, hidden);
  }
  init.hidden = 4;
  std::ostringstream width;
  EXPECT_EQ(tune::run_train(init, width), 1);
  EXPECT_NE(width.str().find("hidden"), std::string::npos) << width.str();
}

// The FEN with its files mirrored (a <-> h), without castling rights or en passant square
// (neither is a network feature; both would be wrong on the mirrored board).
std::string mirror_files(const std::string& fen) {
  std::stringstream fields(fen), ranks;
  std::string board, side, out;
  fields >> board >> side;
  ranks << board;
  for (std::string rank; std::getline(ranks, rank, '/');) {
    if (!out.empty()) out += '/';
    out.append(rank.rbegin(), rank.rend());
  }
  return out + " " + side + " - - 0 1";
}

TEST(NetworkTrainer, MirroredFeaturesAreThoseOfTheMirroredPosition) {
  int positions = 0;
  for (const std::string& fen : suite_fens()) {
    core::Game game, mirrored;
    ASSERT_FALSE(game.set_fen(fen));
    ASSERT_FALSE(mirrored.set_fen(mirror_files(fen))) << fen;
    const auto a = tune::PackedPosition::pack(game.position(), 0, tune::GameResult::kDraw);
    const auto b = tune::PackedPosition::pack(mirrored.position(), 0, tune::GameResult::kDraw);
    std::vector<int> us, them, mirror_us, mirror_them;
    tune::record_features(a, us, them, true);
    tune::record_features(b, mirror_us, mirror_them);
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
  ASSERT_FALSE(tune::parse_train_args({"d.vbd", "--out", "n", "--mirror", "1"}, o));
  EXPECT_TRUE(o.mirror);
}

}  // namespace
}  // namespace vblitz::test
