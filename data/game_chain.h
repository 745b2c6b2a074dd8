// The game-chain format (.vbc) for moving and storing network data: each game's first record
// (a keyframe) and then, for each later record, the moves that lead to it and its score as a
// difference from the previous record's, all in one number. A record of datagen's costs under 3
// bytes before general compression instead of 32 (docs/data.md, "The game chain").
//
// The file is the magic "VBC2" and then entries, each starting with a LEB128 varint x (at most 64
// bits, in its shortest form):
//   x = 0:  a keyframe (a game's first record, or any record the moves cannot reach): the
//           occupancy (8 bytes, little-endian), the piece codes of the occupied squares (one nibble
//           each, as in the record, in ceil(pieces / 2) bytes), then four varints: result + 3 *
//           (side-to-move-and-castling byte + 32 * e), e = 0 without en passant square and square
//           + 1 with one; the halfmove clock; the ply; zigzag(score). A step may follow a keyframe
//           whose position core::Position::set reads from the record's FEN.
//   x >= 1: a step of k plies (1-8) from the previous record: x - 1 is a mixed-radix number read
//           from its low end: a binary digit, 0 for k = 1, 1 for k >= 2 followed by a base-7 digit
//           k - 2; for each ply in turn, the move's index among the n moves of the position reached
//           so far, a digit in base n; what is left is zigzag(score difference). The moves of a
//           position are its legal moves in core::generate<LEGAL>'s order, except that the king's
//           own steps (last in that order) are all its steps to squares its side does not hold,
//           legal or not; an index naming a step into check is malformed. The record is the
//           position reached, with the previous record's result, its ply + k and its score +
//           difference.
// core's generator defines the order, so a change to its order changes what files mean: the
// files in tests/fixtures/chain_v2.* pin it (tests/data/game_chain_test.cc).
// Files of the first version ("VBC1": keyframes as the 32-byte records; steps as a varint
// 1 + zigzag(score difference) * 8 + k - 1 and then one byte a move, the index among the legal
// moves in core::generate<LEGAL>'s order) are still read.
//
// The round trip is lossless by construction: the encoder plays every step it writes as the
// decoder will and falls back to a keyframe where the step would not give back the same 32 bytes.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/types.h"
#include "data/packed_position.h"

namespace vblitz::data {

inline constexpr std::string_view kChainMagic = "VBC2";    // the version encode_chain writes
inline constexpr std::string_view kChainMagicV1 = "VBC1";  // the first version, still read
inline constexpr int kChainMaxPlies = 8;                   // the longest step between two records

struct ChainStats {
  size_t records = 0;
  size_t keyframes = 0;  // records stored whole
  size_t plies = 0;      // moves stored by the steps
  size_t bytes = 0;      // the encoded size, magic included
};

// Writes chain entries (without the magic) record by record. A game's entries stand alone: a
// shard is the magic followed by its games' entries in any order.
class ChainWriter {
 public:
  ChainWriter();
  ~ChainWriter();
  ChainWriter(const ChainWriter&) = delete;
  ChainWriter& operator=(const ChainWriter&) = delete;

  // Adds a record reached from the previous one by the `plies` legal moves in moves[] (a step of
  // them where they lead to it, 1 to kChainMaxPlies of them), or a keyframe (plies = 0: a game's
  // first record). Throws std::invalid_argument for a keyframe whose record fails
  // PackedPosition::check().
  void add(const PackedPosition& record, const core::Move* moves, int plies);
  // Adds a record, finding the moves from the previous one by a short search (records without
  // their game's moves: `vblitz data pack`).
  void add_found(const PackedPosition& record);

  // The entries written since the last take(), handed over.
  std::string take();
  ChainStats stats() const { return stats_; }  // all records added; bytes unset

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string entries_;
  ChainStats stats_;
};

// Encodes the records in their order (a game's records in ply order chain best). Every record
// must pass PackedPosition::check() (read_packed and datagen give no other); throws
// std::invalid_argument on one that does not.
std::string encode_chain(const std::vector<PackedPosition>& records, ChainStats* stats = nullptr);

// Decodes a whole chain of either version, appending its records to `out`; on malformed input
// returns the reason (with the entry's offset) and leaves the records decoded before it in `out`.
std::optional<std::string> decode_chain(std::string_view bytes, std::vector<PackedPosition>& out);

}  // namespace vblitz::data
