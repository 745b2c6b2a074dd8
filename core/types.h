// Basic chess value types shared by every layer: colours, pieces, squares and the 16-bit Move.
#pragma once

#include <algorithm>
#include <cstdint>

namespace vblitz::core {

enum Color : uint8_t { WHITE, BLACK, COLOR_NB = 2 };

constexpr Color operator~(Color c) { return Color(c ^ 1); }

enum PieceType : uint8_t { NO_PIECE_TYPE, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, PIECE_TYPE_NB = 7 };

// Piece = colour * 8 + type, so colour and type are cheap bit fields.
enum Piece : uint8_t {
  NO_PIECE,
  W_PAWN = 1,
  W_KNIGHT,
  W_BISHOP,
  W_ROOK,
  W_QUEEN,
  W_KING,
  B_PAWN = 9,
  B_KNIGHT,
  B_BISHOP,
  B_ROOK,
  B_QUEEN,
  B_KING,
  PIECE_NB = 16
};

constexpr Piece make_piece(Color c, PieceType pt) { return Piece((c << 3) | pt); }
constexpr PieceType type_of(Piece p) { return PieceType(p & 7); }
constexpr Color color_of(Piece p) { return Color(p >> 3); }

// Squares are numbered a1 = 0, b1 = 1, ..., h8 = 63.
enum Square : uint8_t {
  SQ_A1,
  SQ_B1,
  SQ_C1,
  SQ_D1,
  SQ_E1,
  SQ_F1,
  SQ_G1,
  SQ_H1,
  SQ_A2,
  SQ_B2,
  SQ_C2,
  SQ_D2,
  SQ_E2,
  SQ_F2,
  SQ_G2,
  SQ_H2,
  SQ_A3,
  SQ_B3,
  SQ_C3,
  SQ_D3,
  SQ_E3,
  SQ_F3,
  SQ_G3,
  SQ_H3,
  SQ_A4,
  SQ_B4,
  SQ_C4,
  SQ_D4,
  SQ_E4,
  SQ_F4,
  SQ_G4,
  SQ_H4,
  SQ_A5,
  SQ_B5,
  SQ_C5,
  SQ_D5,
  SQ_E5,
  SQ_F5,
  SQ_G5,
  SQ_H5,
  SQ_A6,
  SQ_B6,
  SQ_C6,
  SQ_D6,
  SQ_E6,
  SQ_F6,
  SQ_G6,
  SQ_H6,
  SQ_A7,
  SQ_B7,
  SQ_C7,
  SQ_D7,
  SQ_E7,
  SQ_F7,
  SQ_G7,
  SQ_H7,
  SQ_A8,
  SQ_B8,
  SQ_C8,
  SQ_D8,
  SQ_E8,
  SQ_F8,
  SQ_G8,
  SQ_H8,
  SQ_NONE,
  SQUARE_NB = 64
};

enum File : uint8_t { FILE_A, FILE_B, FILE_C, FILE_D, FILE_E, FILE_F, FILE_G, FILE_H };
enum Rank : uint8_t { RANK_1, RANK_2, RANK_3, RANK_4, RANK_5, RANK_6, RANK_7, RANK_8 };

constexpr Square make_square(File f, Rank r) { return Square((r << 3) | f); }
constexpr File file_of(Square s) { return File(s & 7); }
constexpr Rank rank_of(Square s) { return Rank(s >> 3); }
// The square as seen from `c`'s side of the board (rank mirrored for Black).
constexpr Square relative_square(Color c, Square s) { return Square(s ^ (c * 56)); }
constexpr Rank relative_rank(Color c, Rank r) { return Rank(r ^ (c * 7)); }
constexpr Rank relative_rank(Color c, Square s) { return relative_rank(c, rank_of(s)); }
// King steps between two squares (Chebyshev distance).
constexpr int distance(Square a, Square b) {
  const int files = file_of(a) - file_of(b), ranks = rank_of(a) - rank_of(b);
  return std::max(files < 0 ? -files : files, ranks < 0 ? -ranks : ranks);
}
// King steps from s to the nearest of the four centre squares.
constexpr int center_distance(Square s) {
  const int f = file_of(s), r = rank_of(s);
  return std::max(std::max(3 - f, f - 4), std::max(3 - r, r - 4));
}

enum Direction : int8_t {
  NORTH = 8,
  EAST = 1,
  SOUTH = -8,
  WEST = -1,
  NORTH_EAST = 9,
  NORTH_WEST = 7,
  SOUTH_EAST = -7,
  SOUTH_WEST = -9
};

constexpr Direction pawn_push(Color c) { return c == WHITE ? NORTH : SOUTH; }
constexpr Square operator+(Square s, Direction d) { return Square(int(s) + int(d)); }
constexpr Square operator-(Square s, Direction d) { return Square(int(s) - int(d)); }

// Castling rights as four bits; each right also remembers its rook's square (Chess960).
enum CastlingRights : uint8_t {
  NO_CASTLING,
  WHITE_OO = 1,
  WHITE_OOO = 2,
  BLACK_OO = 4,
  BLACK_OOO = 8,
  ALL_CASTLING = 15,
  CASTLING_RIGHT_NB = 16
};

constexpr CastlingRights castling_right(Color c, bool king_side) {
  return CastlingRights((king_side ? WHITE_OO : WHITE_OOO) << (2 * c));
}

// A move in 16 bits:
//   bits  0-5   destination square (for castling: the castling rook's square)
//   bits  6-11  origin square
//   bits 12-13  promotion piece type minus KNIGHT (N=0, B=1, R=2, Q=3)
//   bits 14-15  kind: 0 normal, 1 promotion, 2 en passant, 3 castling
// Castling is encoded as "king takes own rook" so Chess960 needs no special case.
// Move::none() (0) and Move::null() (a1->b1 as a normal move, never legal
// for a king-less square pair in practice) are sentinels.
class Move {
 public:
  enum Kind : uint16_t { NORMAL = 0, PROMOTION = 1 << 14, EN_PASSANT = 2 << 14, CASTLING = 3 << 14 };

  constexpr Move() = default;
  constexpr explicit Move(uint16_t raw) : data_(raw) {}
  constexpr Move(Square from, Square to) : data_(uint16_t((from << 6) | to)) {}

  static constexpr Move make(Square from, Square to, Kind kind, PieceType promo = KNIGHT) {
    return Move(uint16_t(kind | ((promo - KNIGHT) << 12) | (from << 6) | to));
  }
  static constexpr Move none() { return Move(); }
  static constexpr Move null() { return Move(uint16_t(65)); }

  constexpr Square from() const { return Square((data_ >> 6) & 63); }
  constexpr Square to() const { return Square(data_ & 63); }
  constexpr Kind kind() const { return Kind(data_ & (3 << 14)); }
  constexpr PieceType promotion_type() const { return PieceType(((data_ >> 12) & 3) + KNIGHT); }
  constexpr uint16_t raw() const { return data_; }
  constexpr bool is_ok() const { return data_ != none().data_ && data_ != null().data_; }

  constexpr bool operator==(Move other) const { return data_ == other.data_; }
  constexpr bool operator!=(Move other) const { return data_ != other.data_; }

 private:
  uint16_t data_ = 0;
};

}  // namespace vblitz::core
