// The 32-byte training record of network data (docs/data.md has the layout): a position,
// the search's score and the game's result. Bytes are little-endian on every platform.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "core/position.h"

namespace vblitz::data {

// Game result from White's side.
enum class GameResult : uint8_t { kBlackWins = 0, kDraw = 1, kWhiteWins = 2 };

struct PackedPosition {
  static constexpr size_t kBytes = 32;
  std::array<uint8_t, kBytes> bytes{};

  // Packs the position with the search score (centipawns, White's view, clamped to int16)
  // and the game's result.
  static PackedPosition pack(const core::Position& pos, int white_score, GameResult result);

  // --- fields ---
  uint64_t occupied() const;
  // The piece on the i-th occupied square (in ascending square order), i < popcount(occupied).
  core::Piece piece(int i) const { return core::Piece((bytes[8 + i / 2] >> (4 * (i & 1))) & 15); }
  int16_t white_score() const { return int16_t(bytes[24] | (bytes[25] << 8)); }
  uint16_t ply() const { return uint16_t(bytes[26] | (bytes[27] << 8)); }
  GameResult result() const { return GameResult(bytes[28]); }
  core::Color side_to_move() const { return core::Color(bytes[29] & 1); }
  uint8_t castling_rights() const { return uint8_t(bytes[29] >> 1); }
  core::Square ep_square() const { return core::Square(bytes[30]); }
  int rule50() const { return bytes[31]; }

  // The record as a FEN (standard castling letters).
  std::string fen() const;
  // A record is well formed when its fields can be decoded: pieces, counts, result and side to
  // move make sense; returns the reason when not. The game-chain format stores any well-formed
  // record, so this is all its codec asks.
  std::optional<std::string> check() const;
  // Well formed and a position core's FEN reader takes: at most 16 men and 8 pawns a side, no
  // pawn on the first or last rank, an en passant square a pawn can just have passed, castling
  // rights with the king on its first rank and a rook on that side. What the data commands
  // (read_packed) ask of every record they read.
  std::optional<std::string> check_position() const;
  // One text line: "FEN | white score | result" with the result 1-0, 1/2-1/2 or 0-1.
  std::string text_line() const;
  // The key that identifies the position for de-duplication (board and side to move).
  uint64_t position_hash() const;

  bool operator==(const PackedPosition& other) const { return bytes == other.bytes; }
};

}  // namespace vblitz::data
