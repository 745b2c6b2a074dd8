// The network evaluation: file format, overflow check, refresh and incremental updates.
#include "eval/network.h"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <cstring>
#include <functional>
#include <mutex>

#include "core/file.h"
#include "core/text.h"
#include "eval/default_network.h"
#include "simd/network_kernels.h"

namespace vblitz::eval {

namespace {

constexpr char kMagic[4] = {'V', 'B', 'N', 'N'};
// Version 1: magic, version, inputs, hidden, qa, qb, scale (28 bytes), one output bucket.
// Version 2: the same and the number of output buckets (32 bytes).
// Version 3: the same, the number of king buckets, flags (bit 0: mirrored) and one byte per
// relative king square for its bucket (104 bytes).
constexpr size_t kHeaderBytes[4] = {0, 28, 32, 104};
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

size_t file_size(int version, int hidden, int buckets, int kings) {
  return kHeaderBytes[version] +
         2 * (size_t(kings) * size_t(kNetworkInputs) * size_t(hidden) + size_t(hidden) +
              size_t(buckets) * 2 * size_t(hidden)) +
         4 * size_t(buckets) + 8;
}

// The named layouts, for the king on a1-d1, a2-d2, ..., a8-d8 (mirrored to files e-h).
struct NamedLayout {
  const char* name;
  int count;
  uint8_t half[32];
};
constexpr NamedLayout kLayouts[] = {
    {"mirror", 1, {}},
    {"2", 2, {0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
              1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}},
    // Castled (a1-c1, so also f1-h1), the king's own files on the back rank, rank 2, further.
    {"4", 4, {0, 0, 0, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3,
              3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3}},
    {"8", 8, {0, 1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6,
              7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7}},
};

}  // namespace

std::optional<std::string> KingBuckets::parse(std::string_view text, KingBuckets& out) {
  KingBuckets k;
  uint8_t half[32] = {};
  if (text == "none") {
    out = k;
    return std::nullopt;
  }
  const std::string_view whole = text;
  const bool flat = text.size() > 5 && text.substr(text.size() - 5) == ":flat";
  if (flat) text.remove_suffix(5);
  bool named = false;
  for (const NamedLayout& layout : kLayouts)
    if (text == layout.name) {
      k.count = layout.count;
      std::copy(layout.half, layout.half + 32, half);
      named = true;
    }
  if (!named) {
    int n = 0, highest = 0;
    size_t at = 0;
    while (at <= text.size()) {
      const size_t comma = std::min(text.find(',', at), text.size());
      const std::string_view item = text.substr(at, comma - at);
      int v = 0;
      if (item.empty() || item.size() > 2 || n == 32) n = 33;
      for (char c : item) v = c >= '0' && c <= '9' ? v * 10 + (c - '0') : kMaxKingBuckets;
      if (n < 32) half[n++] = uint8_t(std::min(v, 255)), highest = std::max(highest, v);
      at = comma + 1;
    }
    if (n != 32)
      return "king buckets '" + std::string(whole) +
             "': expected none, mirror, 2, 4, 8 or 32 comma-separated buckets for a1-d1, ..., a8-d8, "
             "optionally followed by :flat";
    k.count = highest + 1;
  }
  if (flat && text == "mirror") return std::string("king buckets 'mirror:flat': that is 'none'");
  k.mirrored = !flat;
  for (int s = 0; s < 64; ++s) {
    const int file = s & 7, rank = s >> 3;
    k.bucket[size_t(s)] = half[rank * 4 + (file < 4 ? file : 7 - file)];
  }
  if (auto error = k.error()) return "king buckets " + core::quote(whole) + ": " + *error;
  out = k;
  return std::nullopt;
}

std::optional<std::string> KingBuckets::error() const {
  if (count < 1 || count > kMaxKingBuckets)
    return "bad number of king buckets " + std::to_string(count) + " (1 to " +
           std::to_string(kMaxKingBuckets) + ")";
  std::vector<bool> used(static_cast<size_t>(count));
  for (int s = 0; s < 64; ++s) {
    if (bucket[size_t(s)] >= count)
      return "square " + std::to_string(s) + " has bucket " + std::to_string(bucket[size_t(s)]) + " of " +
             std::to_string(count);
    if (mirrored && bucket[size_t(s)] != bucket[size_t(s ^ 7)])
      return "mirrored, but squares " + std::to_string(s) + " and " + std::to_string(s ^ 7) + " differ";
    used[bucket[size_t(s)]] = true;
  }
  for (int b = 0; b < count; ++b)
    if (!used[size_t(b)]) return "bucket " + std::to_string(b) + " has no square";
  return std::nullopt;
}

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
  for (size_t king = 0; king < size_t(kings.count); ++king)
    for (size_t i = 0; i < h; ++i) {
      for (size_t f = 0; f < size_t(kNetworkInputs); ++f)
        column[f] = std::abs(int(feature_weights[(king * kNetworkInputs + f) * h + i]));
      std::partial_sort(column.begin(), column.begin() + kMaxActiveFeatures, column.end(), std::greater<>());
      long bound = std::abs(long(feature_bias[i]));
      for (int k = 0; k < kMaxActiveFeatures; ++k) bound += column[size_t(k)];
      if (bound > 32767)
        return "accumulator lane " + std::to_string(i) + " can reach " + std::to_string(bound) +
               " with 32 pieces" + (kings.count > 1 ? " in king bucket " + std::to_string(king) : "");
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
  const int version = !kings.plain() ? 3 : output_buckets == 1 ? 1 : 2;
  std::string out(kMagic, 4);
  put(out, uint32_t(version), 4);
  put(out, kNetworkInputs, 4);
  put(out, uint32_t(hidden), 4);
  put(out, uint32_t(kQuantA), 4);
  put(out, uint32_t(kQuantB), 4);
  put(out, uint32_t(scale), 4);
  if (version >= 2) put(out, uint32_t(output_buckets), 4);
  if (version == 3) {
    put(out, uint32_t(kings.count), 4);
    put(out, kings.mirrored ? 1 : 0, 4);
    for (uint8_t b : kings.bucket) put(out, b, 1);
  }
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
  if (version < 1 || version > 3) return "unknown network version " + std::to_string(version);
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
  if (buckets < (version == 2 ? 2 : 1) || buckets > kMaxOutputBuckets)
    return "bad number of output buckets " + std::to_string(buckets);
  KingBuckets kings;
  if (version == 3) {
    const uint64_t count = get(bytes, 32, 4), flags = get(bytes, 36, 4);
    if (count < 1 || count > kMaxKingBuckets) return "bad number of king buckets " + std::to_string(count);
    if (flags > 1) return "bad king bucket flags " + std::to_string(flags);
    kings.count = int(count);
    kings.mirrored = flags == 1;
    for (size_t s = 0; s < 64; ++s) kings.bucket[s] = uint8_t(get(bytes, 40 + s, 1));
    if (auto error = kings.error()) return "king buckets: " + *error;
    if (kings.plain()) return std::string("a version 3 file with plain king buckets");
  }
  const size_t expected = file_size(int(version), int(h), int(buckets), kings.count);
  if (bytes.size() != expected)
    return "size " + std::to_string(bytes.size()) + " bytes, expected " + std::to_string(expected) + " for " +
           std::to_string(h) + " hidden, " + std::to_string(buckets) + " output bucket" +
           (buckets == 1 ? "" : "s") + " and " + std::to_string(kings.count) + " king bucket" +
           (kings.count == 1 ? "" : "s");
  if (get(bytes, bytes.size() - 8, 8) != fnv1a(bytes.substr(0, bytes.size() - 8)))
    return std::string("bad checksum");
  Network net;
  net.hidden = int(h);
  net.output_buckets = int(buckets);
  net.kings = kings;
  net.scale = int(file_scale);
  size_t at = kHeaderBytes[version];
  auto read = [&](simd::AlignedVector<int16_t>& v, size_t n) {
    v.resize(n);
    for (int16_t& w : v) w = int16_t(get(bytes, at, 2)), at += 2;
  };
  read(net.feature_weights, size_t(kings.count) * size_t(kNetworkInputs) * h);
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
    const int key = net.kings.key(p, pos.king_square(p));
    for (core::Bitboard b = pos.pieces(); b; b &= b - 1) {
      const core::Square s = core::lsb(b);
      rows.push_back(net.row(KingBuckets::feature(key, p, pos.piece_on(s), s)));
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
  if (auto error = core::read_file(path, file_size(3, kMaxHidden, kMaxOutputBuckets, kMaxKingBuckets), bytes))
    return error;
  if (auto error = out.parse(bytes)) return core::quote(path) + ": " + *error;
  return std::nullopt;
}

std::optional<std::string> load_active_network(const std::string& path) {
  auto net = std::make_shared<Network>();
  if (auto error = read_network(path, *net)) return error;
  std::lock_guard lock(active_mutex);
  active_slot() = std::move(net);
  return std::nullopt;
}

std::shared_ptr<const Network> network_on_node(const std::shared_ptr<const Network>& source, int node) {
  if (node < 0) return source;
  struct Copy {
    std::weak_ptr<const Network> source;
    int node;
    std::shared_ptr<const Network> copy;
  };
  static std::mutex copies_mutex;
  static std::vector<Copy> copies;
  std::lock_guard lock(copies_mutex);
  // Copies of networks no engine holds any more go first.
  std::erase_if(copies, [](const Copy& c) { return c.source.expired(); });
  for (const Copy& c : copies)
    if (c.node == node && c.source.lock() == source) return c.copy;
  copies.push_back({source, node, std::make_shared<const Network>(*source)});  // written here
  return copies.back().copy;
}

std::string network_name(const Network& net) {
  char name[64];
  std::snprintf(name, sizeof name, "vblitz-%012llx (%d hidden",
                static_cast<unsigned long long>(net.checksum() >> 16), net.hidden);
  std::string text = name;
  if (net.output_buckets > 1) text += ", " + std::to_string(net.output_buckets) + " output buckets";
  if (net.kings.count > 1) text += ", " + std::to_string(net.kings.count) + " king buckets";
  if (net.kings.mirrored) text += ", mirrored";
  return text + ")";
}

std::string active_network_name() { return network_name(*active_network()); }

NetworkStack::NetworkStack(int max_depth) : dirty_(size_t(max_depth) + 1) {}

void NetworkStack::reset(const core::Position& pos, const std::shared_ptr<const Network>& source) {
  net_ = network_on_node(source ? source : active_network(), numa_node_);
  accumulators_.assign(dirty_.size() * 2 * size_t(net_->hidden), 0);
  top_ = 0;
  refresh(pos, 0);
}

void NetworkStack::push(const core::Position& pos, core::Move m) {
  assert(top_ + 1 < int(dirty_.size()));
  Dirty& d = dirty_[size_t(++top_)];
  d.computed = false;
  record_changes(pos, m, d);
  if (net_->kings.plain()) {
    d.key[0] = d.key[1] = 0;
    d.refresh[0] = d.refresh[1] = false;
  } else {
    track_kings(pos, d);
  }
}

void NetworkStack::record_changes(const core::Position& pos, core::Move m, Dirty& d) {
  using namespace core;
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

void NetworkStack::track_kings(const core::Position& pos, Dirty& d) {
  using namespace core;
  const Dirty& before = dirty_[size_t(top_ - 1)];
  bool any = false;
  for (Color c : {WHITE, BLACK}) {
    Square king = pos.king_square(c);
    for (int i = 0; i < d.count; ++i)
      if (d.piece[i] == make_piece(c, KING) && d.to[i] != SQ_NONE) king = d.to[i];
    d.key[c] = net_->kings.key(c, king);
    d.refresh[c] = d.key[c] != before.key[c];
    any |= d.refresh[c];
  }
  if (!any) return;
  // The pieces after the move: those before it that no change moves or removes, then every
  // piece a change puts on a square.
  d.board_count = 0;
  for (Bitboard b = pos.pieces(); b; b &= b - 1) {
    const Square s = lsb(b);
    bool kept = true;
    for (int i = 0; i < d.count; ++i) kept &= d.from[i] != s;
    if (kept) d.board_piece[d.board_count] = pos.piece_on(s), d.board_square[d.board_count++] = s;
  }
  for (int i = 0; i < d.count; ++i)
    if (d.to[i] != SQ_NONE)
      d.board_piece[d.board_count] = d.piece[i], d.board_square[d.board_count++] = d.to[i];
}

void NetworkStack::push_null() {
  assert(top_ + 1 < int(dirty_.size()));
  Dirty& d = dirty_[size_t(++top_)];
  d.count = 0;
  d.computed = false;
  d.key[0] = dirty_[size_t(top_ - 1)].key[0];
  d.key[1] = dirty_[size_t(top_ - 1)].key[1];
  d.refresh[0] = d.refresh[1] = false;
}

void NetworkStack::refresh(const core::Position& pos, int ply) {
  const size_t h = size_t(net_->hidden);
  Dirty& d = dirty_[size_t(ply)];
  for (core::Color p : {core::WHITE, core::BLACK}) {
    d.key[p] = net_->kings.key(p, pos.king_square(p));
    d.refresh[p] = false;
    const int16_t* rows[64];
    size_t n = 0;
    for (core::Bitboard b = pos.pieces(); b; b &= b - 1) {
      const core::Square s = core::lsb(b);
      rows[n++] = net_->row(KingBuckets::feature(d.key[p], p, pos.piece_on(s), s));
    }
    simd::accumulate(acc(ply, p), net_->feature_bias.data(), rows, n, nullptr, 0, h);
  }
  d.computed = true;
}

void NetworkStack::update(int ply) {
  const Dirty& d = dirty_[size_t(ply)];
  const size_t h = size_t(net_->hidden);
  for (core::Color p : {core::WHITE, core::BLACK}) {
    if (d.refresh[p]) {  // the king changed its set or mirror: every row changes
      const int16_t* rows[32];
      for (int i = 0; i < d.board_count; ++i)
        rows[i] = net_->row(KingBuckets::feature(d.key[p], p, d.board_piece[i], d.board_square[i]));
      simd::accumulate(acc(ply, p), net_->feature_bias.data(), rows, size_t(d.board_count), nullptr, 0, h);
      continue;
    }
    const int16_t* add[3];
    const int16_t* sub[3];
    size_t adds = 0, subs = 0;
    for (int i = 0; i < d.count; ++i) {
      if (d.from[i] != core::SQ_NONE)
        sub[subs++] = net_->row(KingBuckets::feature(d.key[p], p, d.piece[i], d.from[i]));
      if (d.to[i] != core::SQ_NONE)
        add[adds++] = net_->row(KingBuckets::feature(d.key[p], p, d.piece[i], d.to[i]));
    }
    simd::accumulate(acc(ply, p), acc(ply - 1, p), add, adds, sub, subs, h);
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
