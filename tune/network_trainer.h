// `vblitz train`: fits the network evaluation (eval/network.h) to packed self-play data in
// float32 with AdamW on all cores, then quantizes it to the engine's integer format.
//   vblitz train TRAIN.vbd --out NET.nnue [--validation VAL.vbd] [--hidden H] [--output-buckets B] [--epochs
//   N]
//     [--batch N] [--lr R] [--schedule step|cosine] [--drop-epoch N] [--drop R]
//     [--weight-decay R] [--lambda L]
//     [--mirror 0|1] [--king-buckets LAYOUT] [--threads N] [--seed N] [--limit N]
//     [--resume CHECKPOINT] [--stop-after N] [--init NET.nnue]
// The loss is (sigmoid(out) - target)^2 with target = lambda * sigmoid(score / 400) +
// (1 - lambda) * result, both from the side to move's view (docs/network.md).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "core/position.h"
#include "data/packed_position.h"
#include "eval/network.h"

namespace vblitz::tune {

// The training record, from the data pipeline (data/packed_position.h).
using data::PackedPosition;

struct TrainOptions {
  std::string data_path, validation_path, out_path, resume_path;
  std::string init_path;  // start from this network's weights instead of random ones
  int hidden = 64;
  int output_buckets = 1;   // 1..eval::kMaxOutputBuckets, by the number of pieces on the board
  eval::KingBuckets kings;  // the first layer's king buckets (eval::KingBuckets::parse)
  int epochs = 20;
  int batch = 16384;
  double learning_rate = 1e-3;
  // kStep: epochs from drop_epoch on (0-based; -1 = 70% of the epochs) use rate * drop.
  // kCosine: every batch's rate follows half a cosine from the rate down to rate * drop at
  // the end of the last epoch.
  enum class Schedule { kStep, kCosine } schedule = Schedule::kStep;
  int drop_epoch = -1;
  double drop = 0.1;
  double weight_decay = 0.01;
  // Weight of the search score in the target; the rest is the game's result. 1.0 measured best
  // for fine-tuning on self-play (docs/ledger.md: 0.5 -61, 0.85 +14, 1.0 +35 Elo against 0.7).
  double lambda = 1.0;
  bool mirror = false;  // every other epoch, a position is seen with its files mirrored (a <-> h)
  int threads = 0;      // 0 = all cores
  uint64_t seed = 1;
  size_t limit = 0;    // use only the first N training positions (0 = all)
  int stop_after = 0;  // end after this many epochs, as if interrupted, leaving the checkpoint (0 = never)
};

// The float network the trainer fits; same shape and meaning as eval::Network before
// quantization (activation clamp(x, 0, 1)^2, output in units of eval::Network::scale cp).
// The learning rate of the batch that starts `done` (0 to 1) of the way through epoch
// `epoch` (0-based) of `o`'s schedule.
double scheduled_rate(const TrainOptions& o, int epoch, double done);

struct FloatNetwork {
  int hidden = 0;
  int output_buckets = 1;
  eval::KingBuckets kings;
  std::vector<float> feature_weights, feature_bias;  // kings.count * 768 rows of `hidden`; `hidden`
  // With more than one king bucket, 768 rows shared by every bucket (a factorizer): each
  // feature's row is its bucket's row plus its shared row, so what the buckets have in common
  // is learnt from every position. Quantizing folds them into the buckets' rows.
  std::vector<float> factor_weights;
  std::vector<float> output_weights, output_bias;  // 2 * hidden weights and one bias per output bucket

  // Small random weights from `seed` (zero shared rows).
  static FloatNetwork random(int hidden, uint64_t seed, int output_buckets = 1,
                             const eval::KingBuckets& kings = {});
  // The float weights of an engine network (its integers divided by their quantization
  // factors), with `output_buckets` buckets and the king buckets `kings`: a network with one
  // output bucket gives each bucket its output weights; a network with one king bucket gives
  // its rows to the shared rows (the buckets' own rows start at zero), or to the only bucket;
  // otherwise the counts and layouts must agree (the reason if they do not).
  static std::optional<std::string> from_network(const eval::Network& net, int output_buckets,
                                                 const eval::KingBuckets& kings, FloatNetwork& out);
  // This network with `wider` >= hidden hidden values: the first `hidden` as they are, the new
  // ones with random first-layer weights from `seed` and zero output weights, so the output
  // is unchanged and training grows the new values from there.
  FloatNetwork widened(int wider, uint64_t seed) const;
  // The output (before the sigmoid) for the side to move of a position given by its features
  // (record_features; the number of features picks the output bucket).
  float forward(const std::vector<int>& us_features, const std::vector<int>& them_features) const;
  // Centipawns for the side to move, as the engine's integer network approximates it.
  int evaluate(const core::Position& pos) const;
  // Rounds to the engine's format; the reason if the result could overflow.
  std::optional<std::string> quantize(eval::Network& out) const;
};

// The active features of a record from both perspectives, side to move's first, in the king
// buckets `kings`; with `mirror`, those of the position with files a and h, b and g, ... swapped.
void record_features(const PackedPosition& p, const eval::KingBuckets& kings, std::vector<int>& us,
                     std::vector<int>& them, bool mirror = false);
// The same for a position.
void position_features(const core::Position& pos, const eval::KingBuckets& kings, std::vector<int>& us,
                       std::vector<int>& them);

// The training target of a record (side to move's view), for a score weight lambda.
float record_target(const PackedPosition& p, double lambda);

// Mean loss of `net` over the records.
double mean_loss(const FloatNetwork& net, const std::vector<PackedPosition>& records, double lambda,
                 int threads);

// Parses the arguments after "train"; returns the error, if any.
std::optional<std::string> parse_train_args(const std::vector<std::string>& args, TrainOptions& options);
std::string train_usage();

// Trains and writes the network (and OUT.checkpoint after every epoch, OUT.loss.csv with the
// loss curves); progress goes to `log`. Returns the exit status.
int run_train(const TrainOptions& options, std::ostream& log);

}  // namespace vblitz::tune
