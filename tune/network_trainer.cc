// The network trainer: sparse float32 forward and backward passes, AdamW, quantization.
#include "tune/network_trainer.h"

#include <omp.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <limits>
#include <ostream>

#include "core/file.h"
#include "core/prng.h"
#include "core/text.h"
#include "data/data_command.h"

namespace vblitz::tune {

namespace {

constexpr float kWeightClip = 1.98f;  // keeps |weight * 64| <= 127 and 32 rows within an int16 accumulator

float sigmoid(float x) { return 1.0f / (1.0f + std::exp(-x)); }

// Adam's moments for one group of parameters.
struct Moments {
  std::vector<float> m, v;
  explicit Moments(size_t n = 0) : m(n, 0.0f), v(n, 0.0f) {}
};

// The gradient of the loss with respect to every parameter, summed over positions.
struct Gradient {
  std::vector<float> feature_weights, feature_bias, output_weights, factor_weights;
  std::vector<double> output_bias;
  double loss = 0;
  explicit Gradient(const FloatNetwork& net)
      : feature_weights(net.feature_weights.size()),
        feature_bias(net.feature_bias.size()),
        output_weights(net.output_weights.size()),
        factor_weights(net.factor_weights.size()),
        output_bias(net.output_bias.size()) {}
  void clear() {
    std::fill(feature_weights.begin(), feature_weights.end(), 0.0f);
    std::fill(factor_weights.begin(), factor_weights.end(), 0.0f);
    std::fill(feature_bias.begin(), feature_bias.end(), 0.0f);
    std::fill(output_weights.begin(), output_weights.end(), 0.0f);
    std::fill(output_bias.begin(), output_bias.end(), 0.0);
    loss = 0;
  }
};

// Scratch space of one thread's forward and backward pass.
struct Scratch {
  std::vector<int> us, them;
  std::vector<float> acc_us, acc_them;
  explicit Scratch(int hidden) : acc_us(size_t(hidden)), acc_them(size_t(hidden)) {}
};

void accumulate(const FloatNetwork& net, const std::vector<int>& features, std::vector<float>& acc) {
  const size_t h = size_t(net.hidden);
  std::copy(net.feature_bias.begin(), net.feature_bias.end(), acc.begin());
  for (int f : features) {
    const float* row = &net.feature_weights[size_t(f) * h];
    for (size_t i = 0; i < h; ++i) acc[i] += row[i];
    if (net.factor_weights.empty()) continue;
    const float* shared = &net.factor_weights[size_t(f % eval::kNetworkInputs) * h];
    for (size_t i = 0; i < h; ++i) acc[i] += shared[i];
  }
}

float activation(float x) {
  const float c = std::clamp(x, 0.0f, 1.0f);
  return c * c;
}

// The output bucket of a position with these active features (one per piece).
int bucket_of(const FloatNetwork& net, const std::vector<int>& features) {
  return eval::output_bucket(int(features.size()), net.output_buckets);
}

// Output from the two accumulators.
float output(const FloatNetwork& net, const std::vector<float>& us, const std::vector<float>& them,
             int bucket) {
  const size_t h = size_t(net.hidden);
  const float* w = &net.output_weights[size_t(bucket) * 2 * h];
  float out = net.output_bias[size_t(bucket)];
  for (size_t i = 0; i < h; ++i) out += activation(us[i]) * w[i] + activation(them[i]) * w[h + i];
  return out;
}

// Adds one position's loss and gradient to g.
void backward(const FloatNetwork& net, const PackedPosition& p, double lambda, bool mirror, Scratch& s,
              Gradient& g) {
  record_features(p, net.kings, s.us, s.them, mirror);
  accumulate(net, s.us, s.acc_us);
  accumulate(net, s.them, s.acc_them);
  const int bucket = bucket_of(net, s.us);
  const float predicted = sigmoid(output(net, s.acc_us, s.acc_them, bucket));
  const float error = predicted - record_target(p, lambda);
  g.loss += double(error) * error;
  const float d_out = 2.0f * error * predicted * (1.0f - predicted);
  g.output_bias[size_t(bucket)] += d_out;
  const size_t h = size_t(net.hidden);
  for (size_t side = 0; side < 2; ++side) {
    std::vector<float>& acc = side ? s.acc_them : s.acc_us;
    const size_t offset = size_t(bucket) * 2 * h + side * h;
    const float* w = &net.output_weights[offset];
    float* g_w = &g.output_weights[offset];
    for (size_t i = 0; i < h; ++i) {
      const float a = acc[i];
      g_w[i] += d_out * activation(a);
      acc[i] = a > 0.0f && a < 1.0f ? d_out * w[i] * 2.0f * a : 0.0f;  // now the accumulator's gradient
      g.feature_bias[i] += acc[i];
    }
    for (int f : side ? s.them : s.us) {
      float* row = &g.feature_weights[size_t(f) * h];
      for (size_t i = 0; i < h; ++i) row[i] += acc[i];
      if (g.factor_weights.empty()) continue;
      float* shared = &g.factor_weights[size_t(f % eval::kNetworkInputs) * h];
      for (size_t i = 0; i < h; ++i) shared[i] += acc[i];
    }
  }
}

// One AdamW step (decoupled weight decay when `decay`) and the clip to the quantizable range.
void adam_step(float* w, const float* grad, Moments& mo, size_t n, double scale, double rate, double decay,
               long step, bool clip) {
  const double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
  const double c1 = 1 - std::pow(beta1, double(step)), c2 = 1 - std::pow(beta2, double(step));
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; ++i) {
    const double gi = grad[i] * scale;
    mo.m[i] = float(beta1 * mo.m[i] + (1 - beta1) * gi);
    mo.v[i] = float(beta2 * mo.v[i] + (1 - beta2) * gi * gi);
    double wi = w[i] - rate * ((mo.m[i] / c1) / (std::sqrt(mo.v[i] / c2) + eps) + decay * w[i]);
    if (clip) wi = std::clamp(wi, double(-kWeightClip), double(kWeightClip));
    w[i] = float(wi);
  }
}

// With shared rows: each bucket's weight within the clip around its shared weight, so their sum
// stays within the clip.
void clip_to_shared(FloatNetwork& net) {
  if (net.factor_weights.empty()) return;
  const size_t shared = net.factor_weights.size();
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < net.feature_weights.size(); ++i) {
    const float f = net.factor_weights[i % shared];
    net.feature_weights[i] = std::clamp(net.feature_weights[i], -kWeightClip - f, kWeightClip - f);
  }
}

struct TrainerState {
  FloatNetwork net;
  Moments feature_weights, feature_bias, output_weights, output_bias, factor_weights;
  long step = 0;
  int epoch = 0;  // epochs completed

  explicit TrainerState(FloatNetwork n)
      : net(std::move(n)),
        feature_weights(net.feature_weights.size()),
        feature_bias(net.feature_bias.size()),
        output_weights(net.output_weights.size()),
        output_bias(net.output_bias.size()),
        factor_weights(net.factor_weights.size()) {}

  // Every float of the state in a fixed order, for checkpoints (the shared rows last: a
  // network without them has the layout of version 2 checkpoints).
  std::vector<std::vector<float>*> arrays() {
    return {&net.feature_weights, &net.feature_bias,  &net.output_weights, &net.output_bias,
            &feature_weights.m,   &feature_weights.v, &feature_bias.m,     &feature_bias.v,
            &output_weights.m,    &output_weights.v,  &output_bias.m,      &output_bias.v,
            &net.factor_weights,  &factor_weights.m,  &factor_weights.v};
  }
};

// Version 3 adds the king buckets' count and mirror to the header; version 2 files (no king
// buckets) are still read.
constexpr char kCheckpointMagic[8] = {'V', 'B', 'C', 'K', 'P', 'T', '0', '3'};
constexpr char kCheckpointMagic2[8] = {'V', 'B', 'C', 'K', 'P', 'T', '0', '2'};

bool write_checkpoint(const std::string& path, TrainerState& s) {
  std::ofstream out(path + ".partial", std::ios::binary);
  out.write(kCheckpointMagic, 8);
  const int64_t header[5] = {s.net.hidden, s.net.output_buckets, s.epoch, s.step,
                             s.net.kings.count * 2 + (s.net.kings.mirrored ? 1 : 0)};
  out.write(reinterpret_cast<const char*>(header), sizeof header);
  for (std::vector<float>* a : s.arrays())
    out.write(reinterpret_cast<const char*>(a->data()), std::streamsize(a->size() * sizeof(float)));
  out.close();
  std::error_code ec;
  std::filesystem::rename(path + ".partial", path, ec);
  return out && !ec;
}

std::optional<std::string> read_checkpoint(const std::string& path, TrainerState& s) {
  if (auto error = core::check_input_file(path)) return error;
  std::ifstream in(path, std::ios::binary);
  char magic[8];
  int64_t header[5] = {0, 0, 0, 0, 2};  // version 2: one king bucket, not mirrored
  if (!in.read(magic, 8)) return core::quote(path) + " is truncated";
  const bool version2 = std::equal(magic, magic + 8, kCheckpointMagic2);
  if (!version2 && !std::equal(magic, magic + 8, kCheckpointMagic))
    return core::quote(path) + " is not a checkpoint of this trainer's version";
  if (!in.read(reinterpret_cast<char*>(header), std::streamsize(sizeof(int64_t) * (version2 ? 4 : 5))))
    return core::quote(path) + " is truncated";
  const int64_t kings = s.net.kings.count * 2 + (s.net.kings.mirrored ? 1 : 0);
  if (header[0] != s.net.hidden || header[1] != s.net.output_buckets || header[4] != kings)
    return core::quote(path) + " has " + std::to_string(header[0]) + " hidden, " + std::to_string(header[1]) +
           " output buckets and " + std::to_string(header[4] / 2) + " king buckets" +
           (header[4] % 2 ? " (mirrored)" : "") + ", not " + std::to_string(s.net.hidden) + ", " +
           std::to_string(s.net.output_buckets) + " and " + std::to_string(s.net.kings.count) +
           (s.net.kings.mirrored ? " (mirrored)" : "");
  s.epoch = int(header[2]);
  s.step = long(header[3]);
  for (std::vector<float>* a : s.arrays())
    in.read(reinterpret_cast<char*>(a->data()), std::streamsize(a->size() * sizeof(float)));
  if (!in || in.peek() != EOF) return core::quote(path) + " is truncated or too long";
  return std::nullopt;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

FloatNetwork FloatNetwork::random(int hidden, uint64_t seed, int output_buckets,
                                  const eval::KingBuckets& kings) {
  FloatNetwork net;
  net.hidden = hidden;
  net.output_buckets = output_buckets;
  net.kings = kings;
  core::Prng prng(seed);
  auto uniform = [&](float range) {
    return range * (float(prng.next() >> 40) / float(1 << 24) * 2.0f - 1.0f);
  };
  net.feature_weights.resize(size_t(kings.count) * size_t(eval::kNetworkInputs) * size_t(hidden));
  for (float& w : net.feature_weights) w = uniform(0.1f);
  if (kings.count > 1) net.factor_weights.assign(size_t(eval::kNetworkInputs) * size_t(hidden), 0.0f);
  net.feature_bias.assign(size_t(hidden), 0.1f);
  net.output_weights.resize(size_t(output_buckets) * 2 * size_t(hidden));
  for (float& w : net.output_weights) w = uniform(1.0f / std::sqrt(float(hidden)));
  net.output_bias.assign(size_t(output_buckets), 0.0f);
  return net;
}

std::optional<std::string> FloatNetwork::from_network(const eval::Network& net, int output_buckets,
                                                      const eval::KingBuckets& kings, FloatNetwork& out) {
  if (net.output_buckets != 1 && net.output_buckets != output_buckets)
    return "the network has " + std::to_string(net.output_buckets) + " output buckets, not " +
           std::to_string(output_buckets);
  if (net.kings.count != 1 && !(net.kings == kings))
    return "the network has " + std::to_string(net.kings.count) + " king buckets in another layout";
  FloatNetwork f;
  f.hidden = net.hidden;
  f.output_buckets = output_buckets;
  f.kings = kings;
  const float qa = float(eval::kQuantA), qb = float(eval::kQuantB);
  std::vector<float> rows;
  for (int16_t w : net.feature_weights) rows.push_back(float(w) / qa);
  if (kings.count == 1) {
    f.feature_weights = std::move(rows);
  } else if (net.kings.count == 1) {  // one set of rows: shared by every bucket
    f.factor_weights = std::move(rows);
    f.feature_weights.assign(size_t(kings.count) * f.factor_weights.size(), 0.0f);
  } else {
    f.feature_weights = std::move(rows);
    f.factor_weights.assign(size_t(eval::kNetworkInputs) * size_t(net.hidden), 0.0f);
  }
  for (int16_t w : net.feature_bias) f.feature_bias.push_back(float(w) / qa);
  for (int b = 0; b < output_buckets; ++b) {
    const size_t from = net.output_buckets == 1 ? 0 : size_t(b);
    for (size_t i = 0; i < 2 * size_t(net.hidden); ++i)
      f.output_weights.push_back(float(net.output_weights[from * 2 * size_t(net.hidden) + i]) / qb);
    f.output_bias.push_back(float(net.output_bias[from]) / (qa * qb));
  }
  out = std::move(f);
  return std::nullopt;
}

FloatNetwork FloatNetwork::widened(int wider, uint64_t seed) const {
  FloatNetwork w = random(wider, seed, output_buckets, kings);
  const size_t h = size_t(hidden), wh = size_t(wider);
  for (size_t f = 0; f < size_t(kings.count) * size_t(eval::kNetworkInputs); ++f)
    std::copy_n(&feature_weights[f * h], h, &w.feature_weights[f * wh]);
  for (size_t f = 0; f < factor_weights.size() / h; ++f)
    std::copy_n(&factor_weights[f * h], h, &w.factor_weights[f * wh]);
  std::copy_n(feature_bias.begin(), h, w.feature_bias.begin());
  std::fill(w.output_weights.begin(), w.output_weights.end(), 0.0f);
  for (size_t b = 0; b < size_t(output_buckets); ++b)
    for (size_t side = 0; side < 2; ++side)
      std::copy_n(&output_weights[(b * 2 + side) * h], h, &w.output_weights[(b * 2 + side) * wh]);
  w.output_bias = output_bias;
  return w;
}

float FloatNetwork::forward(const std::vector<int>& us_features,
                            const std::vector<int>& them_features) const {
  std::vector<float> us(static_cast<size_t>(hidden)), them(static_cast<size_t>(hidden));
  accumulate(*this, us_features, us);
  accumulate(*this, them_features, them);
  return output(*this, us, them, bucket_of(*this, us_features));
}

int FloatNetwork::evaluate(const core::Position& pos) const {
  std::vector<int> us, them;
  position_features(pos, kings, us, them);
  return int(std::lround(forward(us, them) * float(eval::Network().scale)));
}

std::optional<std::string> FloatNetwork::quantize(eval::Network& out) const {
  auto round_to = [](float w, double q) { return int16_t(std::clamp(std::lround(w * q), -32767L, 32767L)); };
  eval::Network net;
  net.hidden = hidden;
  net.output_buckets = output_buckets;
  net.kings = kings;
  for (size_t i = 0; i < feature_weights.size(); ++i) {
    const float shared = factor_weights.empty() ? 0.0f : factor_weights[i % factor_weights.size()];
    net.feature_weights.push_back(round_to(feature_weights[i] + shared, eval::kQuantA));
  }
  for (float w : feature_bias) net.feature_bias.push_back(round_to(w, eval::kQuantA));
  for (float w : output_weights) net.output_weights.push_back(round_to(w, eval::kQuantB));
  for (float b : output_bias)
    net.output_bias.push_back(int32_t(std::lround(double(b) * eval::kQuantA * eval::kQuantB)));
  if (auto error = net.overflow_error()) return error;
  out = std::move(net);
  return std::nullopt;
}

void record_features(const PackedPosition& p, const eval::KingBuckets& kings, std::vector<int>& us,
                     std::vector<int>& them, bool mirror) {
  us.clear();
  them.clear();
  const core::Color stm = p.side_to_move();
  const int flip = mirror ? 7 : 0;
  int key[2] = {0, 0};
  if (!kings.plain()) {
    int i = 0;
    for (uint64_t b = p.occupied(); b; b &= b - 1, ++i)
      if (core::type_of(p.piece(i)) == core::KING) {
        const core::Color c = core::color_of(p.piece(i));
        key[c] = kings.key(c, core::Square(std::countr_zero(b) ^ flip));
      }
  }
  int i = 0;
  for (uint64_t b = p.occupied(); b; b &= b - 1, ++i) {
    const core::Square s = core::Square(std::countr_zero(b) ^ flip);
    us.push_back(eval::KingBuckets::feature(key[stm], stm, p.piece(i), s));
    them.push_back(eval::KingBuckets::feature(key[~stm], ~stm, p.piece(i), s));
  }
}

void position_features(const core::Position& pos, const eval::KingBuckets& kings, std::vector<int>& us,
                       std::vector<int>& them) {
  us.clear();
  them.clear();
  const core::Color stm = pos.side_to_move();
  const int key_us = kings.key(stm, pos.king_square(stm)), key_them = kings.key(~stm, pos.king_square(~stm));
  for (core::Bitboard b = pos.pieces(); b; b &= b - 1) {
    const core::Square s = core::lsb(b);
    us.push_back(eval::KingBuckets::feature(key_us, stm, pos.piece_on(s), s));
    them.push_back(eval::KingBuckets::feature(key_them, ~stm, pos.piece_on(s), s));
  }
}

float record_target(const PackedPosition& p, double lambda) {
  const bool white = p.side_to_move() == core::WHITE;
  const float score = float(white ? p.white_score() : -p.white_score());
  const float white_result = float(p.result()) / 2.0f;
  const float result = white ? white_result : 1.0f - white_result;
  return float(lambda) * sigmoid(score / float(eval::Network().scale)) + float(1 - lambda) * result;
}

double mean_loss(const FloatNetwork& net, const std::vector<PackedPosition>& records, double lambda,
                 int threads) {
  if (records.empty()) return 0;
  double total = 0;
#pragma omp parallel num_threads(threads) reduction(+ : total)
  {
    Scratch s(net.hidden);
#pragma omp for schedule(static)
    for (size_t i = 0; i < records.size(); ++i) {
      record_features(records[i], net.kings, s.us, s.them);
      accumulate(net, s.us, s.acc_us);
      accumulate(net, s.them, s.acc_them);
      const double error = sigmoid(output(net, s.acc_us, s.acc_them, bucket_of(net, s.us))) -
                           record_target(records[i], lambda);
      total += error * error;
    }
  }
  return total / double(records.size());
}

double scheduled_rate(const TrainOptions& o, int epoch, double done) {
  if (o.schedule == TrainOptions::Schedule::kCosine) {
    const double t = std::min(1.0, (epoch + done) / o.epochs);
    return o.learning_rate * (o.drop + (1 - o.drop) * 0.5 * (1 + std::cos(3.14159265358979323846 * t)));
  }
  const int drop_epoch = o.drop_epoch >= 0 ? o.drop_epoch : o.epochs * 7 / 10;
  return o.learning_rate * (epoch >= drop_epoch ? o.drop : 1.0);
}

std::string train_usage() {
  return "usage: vblitz train TRAIN.vbd --out NET.nnue [--validation VAL.vbd] [--hidden H]\n"
         "  [--output-buckets B] [--init NET.nnue] [--epochs N] [--batch N] [--lr R]\n"
         "  [--schedule step|cosine] [--drop-epoch N] [--drop R] [--weight-decay R] [--lambda L]\n"
         "  [--mirror 0|1] [--king-buckets LAYOUT] [--threads N] [--seed N] [--limit N]\n"
         "  [--resume CHECKPOINT] [--stop-after N]\n"
         "LAYOUT: none (the default), mirror, 2, 4, 8, or 32 comma-separated buckets for a1-d1, ..., a8-d8";
}

std::optional<std::string> parse_train_args(const std::vector<std::string>& args, TrainOptions& o) {
  if (args.empty() || args[0].rfind("--", 0) == 0) return std::string("train needs a data file");
  o.data_path = args[0];
  for (size_t i = 1; i < args.size(); i += 2) {
    if (i + 1 >= args.size()) return args[i] + " needs a value";
    const std::string& flag = args[i];
    const std::string& value = args[i + 1];
    // NaN (no comparison holds) for anything but a whole finite number.
    const double v =
        core::parse_double(value, -std::numeric_limits<double>::max(), std::numeric_limits<double>::max())
            .value_or(std::nan(""));
    auto whole = [&](double lo, double hi) { return v == std::floor(v) && v >= lo && v <= hi; };
    if (flag == "--out")
      o.out_path = value;
    else if (flag == "--validation")
      o.validation_path = value;
    else if (flag == "--resume")
      o.resume_path = value;
    else if (flag == "--init")
      o.init_path = value;
    else if (flag == "--hidden" && whole(1, 4096))
      o.hidden = int(v);
    else if (flag == "--output-buckets" && whole(1, eval::kMaxOutputBuckets))
      o.output_buckets = int(v);
    else if (flag == "--epochs" && whole(1, 100000))
      o.epochs = int(v);
    else if (flag == "--batch" && whole(1, 1 << 24))
      o.batch = int(v);
    else if (flag == "--lr" && v > 0 && v < 1)
      o.learning_rate = v;
    else if (flag == "--schedule" && (value == "step" || value == "cosine"))
      o.schedule = value == "step" ? TrainOptions::Schedule::kStep : TrainOptions::Schedule::kCosine;
    else if (flag == "--drop-epoch" && whole(0, 100000))
      o.drop_epoch = int(v);
    else if (flag == "--drop" && v > 0 && v <= 1)
      o.drop = v;
    else if (flag == "--weight-decay" && v >= 0 && v < 1)
      o.weight_decay = v;
    else if (flag == "--lambda" && v >= 0 && v <= 1)
      o.lambda = v;
    else if (flag == "--mirror" && whole(0, 1))
      o.mirror = v == 1;
    else if (flag == "--king-buckets") {
      if (auto error = eval::KingBuckets::parse(value, o.kings)) return error;
    } else if (flag == "--threads" && whole(1, 1024))
      o.threads = int(v);
    else if (flag == "--seed" && whole(0, 9e15))
      o.seed = uint64_t(v);
    else if (flag == "--stop-after" && whole(1, 100000))
      o.stop_after = int(v);
    else if (flag == "--limit" && whole(1, 9e15))
      o.limit = size_t(v);
    else
      return "bad argument " + core::quote(flag + " " + value);
  }
  if (o.out_path.empty()) return std::string("train needs --out NET.nnue");
  return std::nullopt;
}

int run_train(const TrainOptions& o, std::ostream& log) {
  std::vector<PackedPosition> train, validation;
  if (auto error = read_packed({o.data_path}, train)) return log << *error << '\n', 1;
  if (!o.validation_path.empty()) {
    if (auto error = read_packed({o.validation_path}, validation)) return log << *error << '\n', 1;
    if (validation.empty())
      return log << "no validation positions in " << core::quote(o.validation_path) << '\n', 1;
  }
  if (o.limit && train.size() > o.limit) train.resize(o.limit);
  if (train.empty()) return log << "no training positions in '" << o.data_path << "'\n", 1;
  if (train.size() > UINT32_MAX) return log << "more than 2^32 training positions: split the data\n", 1;
  const int threads = o.threads > 0 ? o.threads : omp_get_max_threads();
  omp_set_num_threads(threads);

  FloatNetwork initial = FloatNetwork::random(o.hidden, o.seed, o.output_buckets, o.kings);
  if (!o.init_path.empty()) {
    eval::Network init;
    if (auto error = eval::read_network(o.init_path, init)) return log << *error << '\n', 1;
    if (init.hidden > o.hidden)
      return log << "'" << o.init_path << "' has " << init.hidden << " hidden, more than " << o.hidden
                 << '\n',
             1;
    if (auto error = FloatNetwork::from_network(init, o.output_buckets, o.kings, initial))
      return log << "'" << o.init_path << "': " << *error << '\n', 1;
    if (init.hidden < o.hidden) initial = initial.widened(o.hidden, o.seed);
  }
  TrainerState state(std::move(initial));
  if (!o.resume_path.empty())
    if (auto error = read_checkpoint(o.resume_path, state)) return log << *error << '\n', 1;
  std::ofstream curve(o.out_path + ".loss.csv", state.epoch ? std::ios::app : std::ios::trunc);
  if (!state.epoch) curve << "epoch,train_loss,validation_loss,learning_rate,seconds\n";
  log << "training on " << train.size() << " positions (" << validation.size() << " for validation), hidden "
      << o.hidden << ", " << o.output_buckets << " output bucket" << (o.output_buckets == 1 ? "" : "s")
      << ", " << o.kings.count << " king bucket" << (o.kings.count == 1 ? "" : "s")
      << (o.kings.mirrored ? " (mirrored)" : "") << ", " << threads << " threads, from epoch "
      << state.epoch + 1
      << (o.init_path.empty() || !o.resume_path.empty() ? "" : ", starting from " + core::quote(o.init_path))
      << '\n';

  std::vector<Gradient> gradients(size_t(threads), Gradient(state.net));
  std::vector<Scratch> scratch(size_t(threads), Scratch(o.hidden));
  std::vector<uint32_t> order(train.size());
  const auto start = std::chrono::steady_clock::now();
  while (state.epoch < o.epochs) {
    const auto epoch_start = std::chrono::steady_clock::now();
    double rate = 0;
    for (size_t i = 0; i < order.size(); ++i) order[i] = uint32_t(i);
    core::Prng prng(o.seed * 1000003 + uint64_t(state.epoch));
    for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[prng.below(i)]);
    double epoch_loss = 0;
    for (size_t first = 0; first < order.size(); first += size_t(o.batch)) {
      const size_t last = std::min(order.size(), first + size_t(o.batch));
      rate = scheduled_rate(o, state.epoch, double(first) / double(order.size()));
      for (Gradient& g : gradients) g.clear();  // OpenMP may run fewer threads than asked
#pragma omp parallel num_threads(threads)
      {
        Gradient& g = gradients[size_t(omp_get_thread_num())];
#pragma omp for schedule(static)
        for (size_t k = first; k < last; ++k) {
          const bool mirror = o.mirror && ((order[k] + uint32_t(state.epoch)) & 1);
          backward(state.net, train[order[k]], o.lambda, mirror, scratch[size_t(omp_get_thread_num())], g);
        }
      }
      Gradient& total = gradients[0];
      for (size_t t = 1; t < gradients.size(); ++t) {
        const Gradient& g = gradients[t];
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < total.feature_weights.size(); ++i)
          total.feature_weights[i] += g.feature_weights[i];
        for (size_t i = 0; i < total.feature_bias.size(); ++i) total.feature_bias[i] += g.feature_bias[i];
        for (size_t i = 0; i < total.output_weights.size(); ++i)
          total.output_weights[i] += g.output_weights[i];
        for (size_t i = 0; i < total.output_bias.size(); ++i) total.output_bias[i] += g.output_bias[i];
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < total.factor_weights.size(); ++i)
          total.factor_weights[i] += g.factor_weights[i];
        total.loss += g.loss;
      }
      epoch_loss += total.loss;
      const double scale = 1.0 / double(last - first);
      ++state.step;
      FloatNetwork& net = state.net;
      adam_step(net.feature_weights.data(), total.feature_weights.data(), state.feature_weights,
                net.feature_weights.size(), scale, rate, o.weight_decay, state.step,
                net.factor_weights.empty());
      if (!net.factor_weights.empty()) {
        adam_step(net.factor_weights.data(), total.factor_weights.data(), state.factor_weights,
                  net.factor_weights.size(), scale, rate, o.weight_decay, state.step, true);
        clip_to_shared(net);
      }
      adam_step(net.feature_bias.data(), total.feature_bias.data(), state.feature_bias,
                net.feature_bias.size(), scale, rate, 0, state.step, false);
      adam_step(net.output_weights.data(), total.output_weights.data(), state.output_weights,
                net.output_weights.size(), scale, rate, o.weight_decay, state.step, true);
      const std::vector<float> bias_gradient(total.output_bias.begin(), total.output_bias.end());
      adam_step(net.output_bias.data(), bias_gradient.data(), state.output_bias, net.output_bias.size(),
                scale, rate, 0, state.step, false);
    }
    const double train_loss = epoch_loss / double(train.size());
    const double validation_loss = mean_loss(state.net, validation, o.lambda, threads);
    const double seconds = seconds_since(epoch_start);
    curve << state.epoch + 1 << ',' << std::setprecision(8) << train_loss << ',' << validation_loss << ','
          << rate << ',' << seconds << '\n'
          << std::flush;
    log << "epoch " << state.epoch + 1 << "/" << o.epochs << ": train loss " << std::setprecision(6)
        << train_loss << ", validation loss " << validation_loss << ", rate " << rate << ", "
        << long(double(train.size()) / seconds) << " positions/s, " << long(seconds_since(start))
        << " s in all\n"
        << std::flush;
    ++state.epoch;
    if (!write_checkpoint(o.out_path + ".checkpoint", state))
      return log << "cannot write '" << o.out_path << ".checkpoint'\n", 1;
    if (o.stop_after && state.epoch >= o.stop_after && state.epoch < o.epochs)
      return log << "stopped after epoch " << state.epoch << "; --resume " << o.out_path
                 << ".checkpoint goes on\n",
             0;
  }
  eval::Network quantized;
  if (auto error = state.net.quantize(quantized)) return log << "not written: " << *error << '\n', 1;
  std::ofstream out(o.out_path, std::ios::binary);
  const std::string bytes = quantized.serialize();
  if (!out.write(bytes.data(), std::streamsize(bytes.size())))
    return log << "cannot write '" << o.out_path << "'\n", 1;
  char name[32];
  std::snprintf(name, sizeof name, "vblitz-%012llx",
                static_cast<unsigned long long>(quantized.checksum() >> 16));
  log << "wrote '" << o.out_path << "' (" << bytes.size() << " bytes, checksum name " << name << ")\n";
  return 0;
}

}  // namespace vblitz::tune
