// Builds the attack tables once at start-up: step tables, between/line tables, and slider
// lookups (magic numbers found by a fixed-seed search, or PEXT indices with BMI2).
#include "core/bitboard.h"

#include <cstdlib>
#include <vector>

#include "core/prng.h"

namespace vblitz::core {

namespace tables {
Bitboard pawn_attacks[COLOR_NB][SQUARE_NB];
Bitboard knight_attacks[SQUARE_NB];
Bitboard king_attacks[SQUARE_NB];
Bitboard between[SQUARE_NB][SQUARE_NB];
Bitboard line[SQUARE_NB][SQUARE_NB];
Magic rook_magics[SQUARE_NB];
Magic bishop_magics[SQUARE_NB];
}  // namespace tables

namespace {

Bitboard rook_table[0x19000];   // 102,400 entries: the sum of 2^bits over all squares
Bitboard bishop_table[0x1480];  // 5,248 entries

// The square one step (df, dr) from s, or SQ_NONE off the board.
Square step(Square s, int df, int dr) {
  int f = file_of(s) + df, r = rank_of(s) + dr;
  return (f < 0 || f > 7 || r < 0 || r > 7) ? SQ_NONE : make_square(File(f), Rank(r));
}

Bitboard step_attacks(Square s, const int (*deltas)[2], int count) {
  Bitboard b = 0;
  for (int i = 0; i < count; ++i) {
    Square t = step(s, deltas[i][0], deltas[i][1]);
    if (t != SQ_NONE) b |= square_bb(t);
  }
  return b;
}

constexpr int kRookDirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int kBishopDirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

// Fills one slider's lookup for every square, packing the attack sets into `table`.
void init_sliders(PieceType pt, Bitboard* table, Magic* magics) {
  std::vector<Bitboard> occupancy(4096), reference(4096);
#if !defined(__BMI2__)
  Prng rng(pt == ROOK ? 0x5EEDB00C5ULL : 0xB15B0B5ULL);
  std::vector<int> epoch(4096, 0);
  int attempt = 0;
#endif
  Bitboard* next_table = table;

  for (int sq = 0; sq < 64; ++sq) {
    Square s = Square(sq);
    Bitboard edges = ((kRank1BB | kRank8BB) & ~rank_bb(s)) | ((kFileABB | kFileHBB) & ~file_bb(s));
    Magic& m = magics[s];
    m.mask = slow_slider_attacks(pt, s, 0) & ~edges;
    int bits = popcount(m.mask);
    m.shift = 64 - bits;
    m.attacks = next_table;
    next_table += size_t(1) << bits;

    // Enumerate every subset of the mask (Carry-Rippler) with its true attack set.
    int size = 0;
    Bitboard subset = 0;
    do {
      occupancy[size] = subset;
      reference[size] = slow_slider_attacks(pt, s, subset);
      ++size;
      subset = (subset - m.mask) & m.mask;
    } while (subset);

#if defined(__BMI2__)
    for (int i = 0; i < size; ++i) m.attacks[m.index(occupancy[i])] = reference[i];
#else
    // Try sparse random numbers until one maps the subsets without destructive collisions.
    for (int i = 0; i < size;) {
      do {
        m.magic = rng.sparse();
      } while (popcount((m.magic * m.mask) >> 56) < 6);
      ++attempt;
      for (i = 0; i < size; ++i) {
        unsigned idx = m.index(occupancy[i]);
        if (epoch[idx] < attempt) {
          epoch[idx] = attempt;
          m.attacks[idx] = reference[i];
        } else if (m.attacks[idx] != reference[i]) {
          break;
        }
      }
    }
#endif
  }
  if (next_table > table + (pt == ROOK ? std::size(rook_table) : std::size(bishop_table))) std::abort();
}

struct TableInitializer {
  TableInitializer() {
    constexpr int knight[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    constexpr int king[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    constexpr int white_pawn[2][2] = {{-1, 1}, {1, 1}};
    constexpr int black_pawn[2][2] = {{-1, -1}, {1, -1}};
    for (int sq = 0; sq < 64; ++sq) {
      Square s = Square(sq);
      tables::knight_attacks[s] = step_attacks(s, knight, 8);
      tables::king_attacks[s] = step_attacks(s, king, 8);
      tables::pawn_attacks[WHITE][s] = step_attacks(s, white_pawn, 2);
      tables::pawn_attacks[BLACK][s] = step_attacks(s, black_pawn, 2);
    }
    init_sliders(ROOK, rook_table, tables::rook_magics);
    init_sliders(BISHOP, bishop_table, tables::bishop_magics);

    for (int a = 0; a < 64; ++a) {
      for (int b = 0; b < 64; ++b) {
        Square sa = Square(a), sb = Square(b);
        tables::between[a][b] = square_bb(sb);
        tables::line[a][b] = 0;
        if (a == b) continue;
        for (PieceType pt : {BISHOP, ROOK}) {
          if (slow_slider_attacks(pt, sa, 0) & square_bb(sb)) {
            tables::line[a][b] = (slow_slider_attacks(pt, sa, 0) & slow_slider_attacks(pt, sb, 0)) |
                                 square_bb(sa) | square_bb(sb);
            tables::between[a][b] |=
                slow_slider_attacks(pt, sa, square_bb(sb)) & slow_slider_attacks(pt, sb, square_bb(sa));
          }
        }
      }
    }
  }
};

const TableInitializer table_initializer;

}  // namespace

Bitboard slow_slider_attacks(PieceType pt, Square s, Bitboard occupied) {
  const int(*dirs)[2] = pt == ROOK ? kRookDirs : kBishopDirs;
  Bitboard attacks = 0;
  for (int d = 0; d < 4; ++d) {
    for (Square t = step(s, dirs[d][0], dirs[d][1]); t != SQ_NONE; t = step(t, dirs[d][0], dirs[d][1])) {
      attacks |= square_bb(t);
      if (occupied & square_bb(t)) break;
    }
  }
  return attacks;
}

}  // namespace vblitz::core
