// The network evaluation: an efficiently updatable network (768 x K -> H) x 2 -> 1.
// Inputs: one feature per (piece, square), seen from each side ("perspective"): own pieces
// first, the board mirrored for Black. With king buckets the perspective's own king square
// picks one of K sets of 768 first-layer rows, and a mirrored layout sees a king on files e-h
// with the board's files mirrored (a <-> h). The first layer sums the weight rows of the active
// features into an accumulator of H int16 lanes per perspective; the output layer is a
// squared clipped ReLU of both accumulators (side to move first) dotted with 2H weights, one
// set of 2H weights and a bias per output bucket (buckets by the number of pieces on the
// board; one bucket in networks without them).
// docs/network.md has the file format, the quantization and how the default was trained.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/position.h"
#include "simd/aligned_vector.h"

namespace vblitz::eval {

constexpr int kNetworkInputs = 768;
constexpr int kQuantA = 255;  // first layer: weights and biases times 255; the clip of the activation
constexpr int kQuantB = 64;   // output weights times 64
constexpr int kMaxNetworkScore = 20000;  // outputs are clamped below the search's mate scores
constexpr int kMaxOutputBuckets = 8;
constexpr int kMaxKingBuckets = 32;

// The output bucket of a position with `pieces` pieces (kings included, 2..32) in a network
// with `buckets` output buckets: equal ranges of the piece count, the last one taking 32.
constexpr int output_bucket(int pieces, int buckets) {
  const int b = (pieces - 2) * buckets / 32;
  return b < 0 ? 0 : b >= buckets ? buckets - 1 : b;
}

// Feature of piece `pc` on `s` seen from `perspective`.
constexpr int feature_index(core::Color perspective, core::Piece pc, core::Square s) {
  const int theirs = core::color_of(pc) != perspective;
  const int square = perspective == core::WHITE ? s : s ^ 56;
  return theirs * 384 + (core::type_of(pc) - 1) * 64 + square;
}

// Which set of first-layer rows a perspective reads, by its own king's square.
struct KingBuckets {
  int count = 1;          // sets of 768 rows, 1..kMaxKingBuckets
  bool mirrored = false;  // a king on files e-h sees the board with its files mirrored
  // Per king square, relative to the perspective (rank 1 is its back rank): the set. With
  // `mirrored`, squares a file apart by the mirror (s and s ^ 7) hold the same set.
  std::array<uint8_t, 64> bucket{};

  // The default: one set, no mirroring (the feature is feature_index's).
  bool plain() const { return count == 1 && !mirrored; }
  // A layout from its name: "none", "mirror" (one set, mirrored), "2", "4", "8" (mirrored
  // layouts of that many sets, finer near the back rank; docs/network.md), or 32 comma-separated
  // sets for the king on a1-d1, a2-d2, ..., a8-d8 (mirrored); ":flat" after any but "mirror"
  // gives the same sets without the mirror (e-h take the sets of d-a). The reason if it is not
  // one.
  static std::optional<std::string> parse(std::string_view text, KingBuckets& out);
  // The reason the layout is inconsistent, if it is.
  std::optional<std::string> error() const;
  bool operator==(const KingBuckets& o) const {
    return count == o.count && mirrored == o.mirrored && bucket == o.bucket;
  }
  // The set and the file mirror (0 or 7) of a perspective whose king is on `king`, packed
  // as set * 8 + mirror: two kings with the same key read the same rows.
  int key(core::Color perspective, core::Square king) const {
    const int relative = perspective == core::WHITE ? king : king ^ 56;
    return bucket[size_t(relative)] * 8 + (mirrored && (relative & 7) >= 4 ? 7 : 0);
  }
  // The first-layer row of piece `pc` on `s` seen from `perspective` with key `key`.
  static int feature(int key, core::Color perspective, core::Piece pc, core::Square s) {
    return (key >> 3) * kNetworkInputs + feature_index(perspective, pc, core::Square(s ^ (key & 7)));
  }
};

struct Network {
  int hidden = 0;
  int output_buckets = 1;
  KingBuckets kings;
  int scale = 400;  // centipawns per unit of the float network's output
  // Aligned to 64 bytes, as are the accumulators: with `hidden` a multiple of 32 no vector load
  // of a row straddles two cache lines.
  // kings.count * kNetworkInputs rows of `hidden`, times kQuantA.
  simd::AlignedVector<int16_t> feature_weights;
  simd::AlignedVector<int16_t> feature_bias;  // `hidden`, times kQuantA
  // Per output bucket, 2 * hidden (side to move's half first), times kQuantB.
  simd::AlignedVector<int16_t> output_weights;
  std::vector<int32_t> output_bias;  // per output bucket, times kQuantA * kQuantB

  const int16_t* row(int feature) const { return feature_weights.data() + size_t(feature) * size_t(hidden); }
  // The output bucket of a position with `pieces` pieces on the board.
  int bucket(int pieces) const { return output_bucket(pieces, output_buckets); }
  // Centipawns for the side to move from the two accumulators and the output bucket, within
  // +-kMaxNetworkScore.
  int output(const int16_t* us, const int16_t* them, int bucket) const;
  // The reason the integer arithmetic could overflow (an int16 accumulator with any 32 pieces
  // on the board in any king bucket, an int16 product clip * weight, any bucket's int32 output
  // sum), if it could.
  std::optional<std::string> overflow_error() const;
  // The file's bytes (header, weights, FNV-1a 64 checksum): version 1 for one output bucket,
  // version 2 (with the bucket count in the header) for more, version 3 (with the king bucket
  // layout too) when the kings are not plain.
  std::string serialize() const;
  // Parses a network file; on any defect returns the reason and leaves *this unchanged.
  std::optional<std::string> parse(std::string_view bytes);
  // FNV-1a 64 of the serialized bytes before the checksum: the network's name.
  uint64_t checksum() const;
};

// Evaluates with a full refresh (no incremental state): side to move's view, centipawns.
int evaluate_network(const Network& net, const core::Position& pos);

// The process's network: the default one embedded at build time until load_active_network
// loads another. Searches use it unless their options name their own (search::Options::network,
// which an engine's EvalFile sets). Replace it between searches only.
std::shared_ptr<const Network> active_network();
// Reads a network file; on error returns the reason (with the path) and leaves `out` unchanged.
std::optional<std::string> read_network(const std::string& path, Network& out);
// Loads `path` as the process's network; on error returns the reason and keeps the current one.
std::optional<std::string> load_active_network(const std::string& path);
// The copy of `source` for NUMA node `node` (node < 0: `source` itself). The first thread to
// ask for a node's copy makes it, so on a machine that places memory where it is first touched
// (Linux's default) a thread bound to that node gets weights in its own memory; later calls
// return the same copy while `source` is alive.
std::shared_ptr<const Network> network_on_node(const std::shared_ptr<const Network>& source, int node);
// "vblitz-<12 hex digits of the checksum> (H hidden)" of a network, with ", B output buckets"
// before the parenthesis closes when it has more than one.
std::string network_name(const Network& net);
// network_name of the process's network.
std::string active_network_name();

// The incremental first layer of one search thread: one accumulator pair per ply, updated
// lazily from the nearest computed ancestor with the pieces each move changed.
class NetworkStack {
 public:
  explicit NetworkStack(int max_depth);

  // Starts at `pos` (the root) with `source` (nullptr: the process's network), computing its
  // accumulators.
  void reset(const core::Position& pos, const std::shared_ptr<const Network>& source = nullptr);
  // The NUMA node whose copy of the network later resets read (-1: the shared one).
  void set_numa_node(int node) { numa_node_ = node; }
  const Network* network() const { return net_.get(); }
  // Records move m, which is about to be made in `pos` (call before pos.do_move).
  void push(const core::Position& pos, core::Move m);
  // Records a null move.
  void push_null();
  // Forgets the last move (after undo).
  void pop() { --top_; }
  // The evaluation of `pos`, which must be the position after the pushed moves.
  int evaluate(const core::Position& pos);
  // The accumulator of `perspective` at the top, brought up to date (for tests).
  const int16_t* accumulator(core::Color perspective);

 private:
  // Up to three pieces change per move (castling: king and rook; promotion with capture: the
  // pawn, the new piece and the captured one). SQ_NONE as `from` adds, as `to` removes.
  // With king buckets, a move that changes a perspective's key (its king's set or mirror)
  // refreshes that perspective from `board`, the pieces after the move.
  struct Dirty {
    core::Piece piece[3];
    core::Square from[3], to[3];
    int count = 0;
    bool computed = false;
    int key[2] = {0, 0};  // each perspective's king key after the move
    bool refresh[2] = {false, false};
    int board_count = 0;
    core::Piece board_piece[32];
    core::Square board_square[32];
  };
  int16_t* acc(int ply, core::Color perspective) {
    return accumulators_.data() + (size_t(ply) * 2 + perspective) * size_t(net_->hidden);
  }
  void refresh(const core::Position& pos, int ply);
  // The pieces move m (about to be made in `pos`) changes.
  static void record_changes(const core::Position& pos, core::Move m, Dirty& d);
  // The keys after the move of `d` (about to be made in `pos`) and what it refreshes.
  void track_kings(const core::Position& pos, Dirty& d);
  void update(int ply);  // ply's accumulators from ply - 1's
  void bring_up_to_date();

  std::shared_ptr<const Network> net_;
  int numa_node_ = -1;
  simd::AlignedVector<int16_t> accumulators_;
  std::vector<Dirty> dirty_;
  int top_ = 0;
};

}  // namespace vblitz::eval
