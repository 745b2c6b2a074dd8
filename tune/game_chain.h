// The game-chain format (.vbc) for moving and storing network data: each game's records as its
// first record and then, for each later record, the moves that lead to it (each move as its index
// in the legal move list) and its score as a difference from the previous record's. A position
// costs about 3 bytes before general compression instead of 32 (docs/network.md, "Data formats").
//
// The file is the magic "VBC1" and then entries, each starting with a LEB128 varint h:
//   h = 0:       a keyframe, the 32-byte record itself (a game's first record, or any record the
//                moves cannot reach);
//   h > 0:       h - 1 = zigzag(score difference) * 8 + (k - 1): k plies (1-8), then k bytes of
//                legal-move indices from the previous record's position. The record is that
//                position with the previous record's score plus the difference, its result, and
//                its ply + k.
// The round trip is lossless by construction: the encoder decodes every step it writes and falls
// back to a keyframe where the step would not give back the same 32 bytes.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tune/packed_position.h"

namespace vblitz::tune {

inline constexpr std::string_view kChainMagic = "VBC1";
inline constexpr int kChainMaxPlies = 8;  // the longest step between two records of one game

struct ChainStats {
  size_t records = 0;
  size_t keyframes = 0;  // records stored whole
  size_t plies = 0;      // moves stored by the steps
  size_t bytes = 0;      // the encoded size, magic included
};

// Encodes the records in their order (a game's records in ply order chain best).
std::string encode_chain(const std::vector<PackedPosition>& records, ChainStats* stats = nullptr);

// Decodes a whole chain, appending its records to `out`; on malformed input returns the reason
// (with the entry's offset) and leaves the records decoded before it in `out`.
std::optional<std::string> decode_chain(std::string_view bytes, std::vector<PackedPosition>& out);

}  // namespace vblitz::tune
