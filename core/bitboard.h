// Bitboards and the scalar attack tables (magic bitboards, or PEXT when the build has BMI2).
// These lookups are the reference implementation the SIMD attack kernels are checked against.
#pragma once

#include <bit>
#include <cstdint>

#include "core/types.h"

namespace vblitz::core {

using Bitboard = uint64_t;

constexpr Bitboard kFileABB = 0x0101010101010101ULL;
constexpr Bitboard kFileHBB = kFileABB << 7;
constexpr Bitboard kRank1BB = 0xFFULL;
constexpr Bitboard kRank8BB = kRank1BB << 56;
constexpr Bitboard kDarkSquares = 0xAA55AA55AA55AA55ULL;

constexpr Bitboard square_bb(Square s) { return Bitboard(1) << s; }
constexpr Bitboard file_bb(File f) { return kFileABB << f; }
constexpr Bitboard rank_bb(Rank r) { return kRank1BB << (8 * r); }
constexpr Bitboard file_bb(Square s) { return file_bb(file_of(s)); }
constexpr Bitboard rank_bb(Square s) { return rank_bb(rank_of(s)); }
// The files beside file f.
constexpr Bitboard adjacent_files(File f) {
  return (f > FILE_A ? file_bb(File(f - 1)) : 0) | (f < FILE_H ? file_bb(File(f + 1)) : 0);
}
// The ranks strictly in front of rank r, from c's point of view.
constexpr Bitboard forward_ranks(Color c, Rank r) {
  if (c == WHITE) return r == RANK_8 ? 0 : ~Bitboard(0) << (8 * (r + 1));
  return (Bitboard(1) << (8 * r)) - 1;
}
// The squares an enemy pawn must not hold for a c pawn on s to be passed.
constexpr Bitboard passed_pawn_span(Color c, Square s) {
  return forward_ranks(c, rank_of(s)) & (file_bb(s) | adjacent_files(file_of(s)));
}

inline int popcount(Bitboard b) { return std::popcount(b); }
// Least significant set square; b must be non-zero.
inline Square lsb(Bitboard b) { return Square(std::countr_zero(b)); }
// Removes and returns the least significant set square; b must be non-zero.
inline Square pop_lsb(Bitboard& b) {
  Square s = lsb(b);
  b &= b - 1;
  return s;
}
constexpr bool more_than_one(Bitboard b) { return b & (b - 1); }

// Shifts every bit one step in direction D, dropping what falls off the board.
template <Direction D>
constexpr Bitboard shift(Bitboard b) {
  if constexpr (D == NORTH) return b << 8;
  if constexpr (D == SOUTH) return b >> 8;
  if constexpr (D == EAST) return (b & ~kFileHBB) << 1;
  if constexpr (D == WEST) return (b & ~kFileABB) >> 1;
  if constexpr (D == NORTH_EAST) return (b & ~kFileHBB) << 9;
  if constexpr (D == NORTH_WEST) return (b & ~kFileABB) << 7;
  if constexpr (D == SOUTH_EAST) return (b & ~kFileHBB) >> 7;
  if constexpr (D == SOUTH_WEST) return (b & ~kFileABB) >> 9;
  return 0;
}

// Squares attacked by all pawns of colour C in b.
template <Color C>
constexpr Bitboard pawn_attacks_bb(Bitboard b) {
  return C == WHITE ? shift<NORTH_WEST>(b) | shift<NORTH_EAST>(b)
                    : shift<SOUTH_WEST>(b) | shift<SOUTH_EAST>(b);
}

// One slider's lookup entry: the relevant-occupancy mask, and where its attack sets live.
struct Magic {
  Bitboard mask;
  Bitboard magic;
  Bitboard* attacks;
  unsigned shift;

  unsigned index(Bitboard occupied) const {
#if defined(__BMI2__)
    return unsigned(__builtin_ia32_pext_di(occupied, mask));
#else
    return unsigned(((occupied & mask) * magic) >> shift);
#endif
  }
};

namespace tables {
extern Bitboard pawn_attacks[COLOR_NB][SQUARE_NB];
extern Bitboard knight_attacks[SQUARE_NB];
extern Bitboard king_attacks[SQUARE_NB];
extern Bitboard between[SQUARE_NB][SQUARE_NB];  // squares strictly between, plus the second square
extern Bitboard line[SQUARE_NB][SQUARE_NB];     // the whole line through both squares, or 0
extern Magic rook_magics[SQUARE_NB];
extern Magic bishop_magics[SQUARE_NB];
}  // namespace tables

inline Bitboard pawn_attacks(Color c, Square s) { return tables::pawn_attacks[c][s]; }
inline Bitboard knight_attacks(Square s) { return tables::knight_attacks[s]; }
inline Bitboard king_attacks(Square s) { return tables::king_attacks[s]; }
inline Bitboard bishop_attacks(Square s, Bitboard occupied) {
  const Magic& m = tables::bishop_magics[s];
  return m.attacks[m.index(occupied)];
}
inline Bitboard rook_attacks(Square s, Bitboard occupied) {
  const Magic& m = tables::rook_magics[s];
  return m.attacks[m.index(occupied)];
}
inline Bitboard queen_attacks(Square s, Bitboard occupied) {
  return bishop_attacks(s, occupied) | rook_attacks(s, occupied);
}
// Attacks of a non-pawn piece type from s given the occupancy.
inline Bitboard attacks_bb(PieceType pt, Square s, Bitboard occupied) {
  switch (pt) {
    case KNIGHT: return knight_attacks(s);
    case BISHOP: return bishop_attacks(s, occupied);
    case ROOK: return rook_attacks(s, occupied);
    case QUEEN: return queen_attacks(s, occupied);
    case KING: return king_attacks(s);
    default: return 0;
  }
}

// Squares strictly between a and b on a shared line, plus b itself; just b if no shared line.
inline Bitboard between_bb(Square a, Square b) { return tables::between[a][b]; }
// The full line (rank, file or diagonal) through a and b, or 0 if they share none.
inline Bitboard line_bb(Square a, Square b) { return tables::line[a][b]; }
inline bool aligned(Square a, Square b, Square c) { return line_bb(a, b) & square_bb(c); }

// Slider attacks computed by walking rays: slow, used to build the tables and as a test oracle.
Bitboard slow_slider_attacks(PieceType pt, Square s, Bitboard occupied);

}  // namespace vblitz::core
