// The network evaluation: file format, overflow check, refresh and incremental updates.
#include "eval/network.h"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <cstring>
#include <functional>
#include <mutex>

#include "core/file.h"
#include "eval/default_network.h"
#include "simd/network_kernels.h"

namespace vblitz::eval {

namespace {

constexpr char kMagic[4] = {'V', 'B', 'N', 'N'};
// Version 1: magic, version, inputs, hidden, qa, qb, scale (28 bytes), one output bucket.
// Version 2: the same and the number of output buckets (32 bytes).
constexpr size_t kHeaderBytes[3] = {0, 28, 32};
constexpr int kMaxHidden = 4096;
constexpr int kMaxActiveFeatures = 32;

uint64_t fnv1a(std::string_view bytes) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : bytes) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

void put(std::string& out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out += char(uint8_t(v >> (8 * i)));
}

uint64_t get(std::string_view in, size_t at, int bytes) {
  uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v |= uint64_t(uint8_t(in[at + size_t(i)])) << (8 * i);
  return v;
}

size_t file_size(int version, int hidden, int buckets) {
  return kHeaderBytes[version] +
         2 * (size_t(kNetworkInputs) * size_t(hidden) + size_t(hidden) +
              size_t(buckets) * 2 * size_t(hidden)) +
         4 * size_t(buckets) + 8;
}

}  // namespace

int Network::output(const int16_t* us, const int16_t* them, int bucket) const {
  const size_t h = size_t(hidden);
  const int16_t* weights = output_weights.data() + size_t(bucket) * 2 * h;
  const int64_t sum =
      int64_t(simd::screlu_dot(us, weights, h, kQuantA)) + simd::screlu_dot(them, weights + h, h, kQuantA);
  const int64_t centipawns = (sum / kQuantA + output_bias[size_t(bucket)]) * scale / (kQuantA * kQuantB);
  return int(std::clamp<int64_t>(centipawns, -kMaxNetworkScore, kMaxNetworkScore));
}

std::optional<std::string> Network::overflow_error() const {
  const size_t h = size_t(hidden);
  std::vector<int> column(kNetworkInputs);
  for (size_t i = 0; i < h; ++i) {
    for (int f = 0; f < kNetworkInputs; ++f)
      column[size_t(f)] = std::abs(int(feature_weights[size_t(f) * h + i]));
    std::partial_sort(column.begin(), column.begin() + kMaxActiveFeatures, column.end(), std::greater<>());
    long bound = std::abs(long(feature_bias[i]));
    for (int k = 0; k < kMaxActiveFeatures; ++k) bound += column[size_t(k)];
    if (bound > 32767)
      return "accumulator lane " + std::to_string(i) + " can reach " + std::to_string(bound) +
             " with 32 pieces";
  }
  for (size_t b = 0; b < size_t(output_buckets); ++b) {
    int64_t output_bound = int64_t(std::abs(int64_t(output_bias[b]))) * kQuantA;
    for (size_t i = b * 2 * h; i < (b + 1) * 2 * h; ++i) {
      const int16_t w = output_weights[i];
      if (std::abs(int(w)) * kQuantA > 32767)
        return "output weight " + std::to_string(w) + " times 255 overflows int16";
      output_bound += int64_t(std::abs(int(w))) * kQuantA * kQuantA;
    }
    if (output_bound > INT32_MAX)
      return "bucket " + std::to_string(b) + "'s output sum can reach " + std::to_string(output_bound);
  }
  return std::nullopt;
}

std::string Network::serialize() const {
  const int version = output_buckets == 1 ? 1 : 2;
  std::string out(kMagic, 4);
  put(out, uint32_t(version), 4);
  put(out, kNetworkInputs, 4);
  put(out, uint32_t(hidden), 4);
  put(out, uint32_t(kQuantA), 4);
  put(out, uint32_t(kQuantB), 4);
  put(out, uint32_t(scale), 4);
  if (version == 2) put(out, uint32_t(output_buckets), 4);
  for (const auto* v : {&feature_weights, &feature_bias, &output_weights})
    for (int16_t w : *v) put(out, uint16_t(w), 2);
  for (int32_t b : output_bias) put(out, uint32_t(b), 4);
  put(out, fnv1a(out), 8);
  return out;
}

uint64_t Network::checksum() const {
  const std::string bytes = serialize();
  return get(bytes, bytes.size() - 8, 8);
}

std::optional<std::string> Network::parse(std::string_view bytes) {
  if (bytes.size() < kHeaderBytes[1] + 12)
    return "too short for a network (" + std::to_string(bytes.size()) + " bytes)";
  if (bytes.substr(0, 4) != std::string_view(kMagic, 4))
    return std::string("not a VBlitz network (bad magic)");
  const uint64_t version = get(bytes, 4, 4);
  if (version != 1 && version != 2) return "unknown network version " + std::to_string(version);
  if (bytes.size() < kHeaderBytes[version] + 12)
    return "too short for a network (" + std::to_string(bytes.size()) + " bytes)";
  if (get(bytes, 8, 4) != kNetworkInputs)
    return "expected 768 inputs, not " + std::to_string(get(bytes, 8, 4));
  const uint64_t h = get(bytes, 12, 4);
  if (h == 0 || h > kMaxHidden) return "bad hidden size " + std::to_string(h);
  if (get(bytes, 16, 4) != kQuantA || get(bytes, 20, 4) != kQuantB)
    return std::string("unsupported quantization");
  const int64_t file_scale = int32_t(get(bytes, 24, 4));
  if (file_scale < 1 || file_scale > 10000) return "bad output scale " + std::to_string(file_scale);
  const uint64_t buckets = version == 1 ? 1 : get(bytes, 28, 4);
  if (version == 2 && (buckets < 2 || buckets > kMaxOutputBuckets))
    return "bad number of output buckets " + std::to_string(buckets);
  const size_t expected = file_size(int(version), int(h), int(buckets));
  if (bytes.size() != expected)
    return "size " + std::to_string(bytes.size()) + " bytes, expected " + std::to_string(expected) + " for " +
           std::to_string(h) + " hidden and " + std::to_string(buckets) + " output bucket" +
           (buckets == 1 ? "" : "s");
  if (get(bytes, bytes.size() - 8, 8) != fnv1a(bytes.substr(0, bytes.size() - 8)))
    return std::string("bad checksum");
  Network net;
  net.hidden = int(h);
  net.output_buckets = int(buckets);
  net.scale = int(file_scale);
  size_t at = kHeaderBytes[version];
  auto read = [&](simd::AlignedVector<int16_t>& v, size_t n) {
    v.resize(n);
    for (int16_t& w : v) w = int16_t(get(bytes, at, 2)), at += 2;
  };
  read(net.feature_weights, size_t(kNetworkInputs) * h);
  read(net.feature_bias, h);
  read(net.output_weights, buckets * 2 * h);
  net.output_bias.resize(buckets);
  for (int32_t& b : net.output_bias) b = int32_t(get(bytes, at, 4)), at += 4;
  if (auto error = net.overflow_error()) return "the network could overflow: " + *error;
  *this = std::move(net);
  return std::nullopt;
}

int evaluate_network(const Network& net, const core::Position& pos) {
  const size_t h = size_t(net.hidden);
  simd::AlignedVector<int16_t> acc(2 * h);
  for (core::Color p : {core::WHITE, core::BLACK}) {
    std::vector<const int16_t*> rows;
    for (core::Bitboard b = pos.pieces(); b; b &= b - 1) {
      const core::Square s = core::lsb(b);
      rows.push_back(net.row(feature_index(p, pos.piece_on(s), s)));
    }
    simd::accumulate(acc.data() + p * h, net.feature_bias.data(), rows.data(), rows.size(), nullptr, 0, h);
  }
  const core::Color us = pos.side_to_move();
  return net.output(acc.data() + us * h, acc.data() + (~us) * h, net.bucket(core::popcount(pos.pieces())));
}

namespace {

std::mutex active_mutex;

std::shared_ptr<const Network>& active_slot() {
  static std::shared_ptr<const Network> slot = [] {
    auto net = std::make_shared<Network>();
    const std::string_view bytes(reinterpret_cast<const char*>(kDefaultNetworkBytes), kDefaultNetworkSize);
    if (auto error = net->parse(bytes)) {
      std::fprintf(stderr, "the embedded network is damaged: %s\n", error->c_str());
      std::abort();
    }
    return std::shared_ptr<const Network>(std::move(net));
  }();
  return slot;
}

}  // namespace

std::shared_ptr<const Network> active_network() {
  std::lock_guard lock(active_mutex);
  return active_slot();
}

std::optional<std::string> read_network(const std::string& path, Network& out) {
  std::string bytes;
  if (auto error = core::read_file(path, file_size(2, kMaxHidden, kMaxOutputBuckets), bytes)) return error;
  if (auto error = out.parse(bytes)) return "'" + path + "': " + *error;
  return std::nullopt;
}

std::optional<std::string> load_active_network(const std::string& path) {
  auto net = std::make_shared<Network>();
  if (auto error = read_network(path, *net)) return error;
  std::lock_guard lock(active_mutex);
  active_slot() = std::move(net);
  return std::nullopt;
}

std::shared_ptr<const Network> active_network_on_node(int node) {
  const std::shared_ptr<const Network> source = active_network();
  if (node < 0) return source;
  struct Copy {
    std::shared_ptr<const Network> source, copy;
  };
  static std::mutex copies_mutex;
  static std::vector<Copy> copies;
  std::lock_guard lock(copies_mutex);
  if (size_t(node) >= copies.size()) copies.resize(size_t(node) + 1);
  Copy& c = copies[size_t(node)];
  if (c.source != source) c = {source, std::make_shared<const Network>(*source)};  // written here
  return c.copy;
}

std::string active_network_name() {
  const std::shared_ptr<const Network> net = active_network();
  char name[64];
  std::snprintf(name, sizeof name, "vblitz-%012llx (%d hidden",
                static_cast<unsigned long long>(net->checksum() >> 16), net->hidden);
  std::string text = name;
  if (net->output_buckets > 1) text += ", " + std::to_string(net->output_buckets) + " output buckets";
  return text + ")";
}

NetworkStack::NetworkStack(int max_depth) : dirty_(size_t(max_depth) + 1) {}

void NetworkStack::reset(const core::Position& pos) {
  net_ = active_network_on_node(numa_node_);
  accumulators_.assign(dirty_.size() * 2 * size_t(net_->hidden), 0);
  top_ = 0;
  refresh(pos, 0);
}

void NetworkStack::push(const core::Position& pos, core::Move m) {
  using namespace core;
  assert(top_ + 1 < int(dirty_.size()));
  Dirty& d = dirty_[size_t(++top_)];
  d.computed = false;
  d.count = 0;
  auto change = [&](Piece pc, Square from, Square to) {
    d.piece[d.count] = pc, d.from[d.count] = from, d.to[d.count] = to, ++d.count;
  };
  const Color us = pos.side_to_move();
  const Square from = m.from(), to = m.to();
  const Piece pc = pos.piece_on(from);
  switch (m.kind()) {
    case Move::CASTLING: {
      const bool king_side = to > from;  // the move is written king takes rook
      change(pc, from, relative_square(us, king_side ? SQ_G1 : SQ_C1));
      change(pos.piece_on(to), to, relative_square(us, king_side ? SQ_F1 : SQ_D1));
      return;
    }
    case Move::EN_PASSANT:
      change(pc, from, to);
      change(make_piece(~us, PAWN), Square(to - pawn_push(us)), SQ_NONE);  // the pawn beside the mover
      return;
    case Move::PROMOTION:
      change(pc, from, SQ_NONE);
      change(make_piece(us, m.promotion_type()), SQ_NONE, to);
      break;
    default: change(pc, from, to);
  }
  if (pos.piece_on(to) != NO_PIECE) change(pos.piece_on(to), to, SQ_NONE);
}

void NetworkStack::push_null() {
  assert(top_ + 1 < int(dirty_.size()));
  Dirty& d = dirty_[size_t(++top_)];
  d.count = 0;
  d.computed = false;
}

void NetworkStack::refresh(const core::Position& pos, int ply) {
  const size_t h = size_t(net_->hidden);
  for (core::Color p : {core::WHITE, core::BLACK}) {
    const int16_t* rows[64];
    size_t n = 0;
    for (core::Bitboard b = pos.pieces(); b; b &= b - 1) {
      const core::Square s = core::lsb(b);
      rows[n++] = net_->row(feature_index(p, pos.piece_on(s), s));
    }
    simd::accumulate(acc(ply, p), net_->feature_bias.data(), rows, n, nullptr, 0, h);
  }
  dirty_[size_t(ply)].computed = true;
}

void NetworkStack::update(int ply) {
  const Dirty& d = dirty_[size_t(ply)];
  for (core::Color p : {core::WHITE, core::BLACK}) {
    const int16_t* add[3];
    const int16_t* sub[3];
    size_t adds = 0, subs = 0;
    for (int i = 0; i < d.count; ++i) {
      if (d.from[i] != core::SQ_NONE) sub[subs++] = net_->row(feature_index(p, d.piece[i], d.from[i]));
      if (d.to[i] != core::SQ_NONE) add[adds++] = net_->row(feature_index(p, d.piece[i], d.to[i]));
    }
    simd::accumulate(acc(ply, p), acc(ply - 1, p), add, adds, sub, subs, size_t(net_->hidden));
  }
  dirty_[size_t(ply)].computed = true;
}

void NetworkStack::bring_up_to_date() {
  int first = top_;
  while (!dirty_[size_t(first)].computed) --first;  // ply 0 is always computed
  for (int ply = first + 1; ply <= top_; ++ply) update(ply);
}

const int16_t* NetworkStack::accumulator(core::Color perspective) {
  bring_up_to_date();
  return acc(top_, perspective);
}

int NetworkStack::evaluate(const core::Position& pos) {
  bring_up_to_date();
  const core::Color us = pos.side_to_move();
  const int score = net_->output(acc(top_, us), acc(top_, ~us), net_->bucket(core::popcount(pos.pieces())));
  assert(score == evaluate_network(*net_, pos));  // debug builds: the updates equal a refresh
  return score;
}

}  // namespace vblitz::eval
