// The KPK bitbase: 2 sides to move x 64 x 64 king squares x 24 pawn squares (files a-d, ranks
// 2-7; other files by mirror), iterated until no result changes. Unknown at the end is a draw.
#include "eval/kpk.h"

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/bitboard.h"

namespace vblitz::eval {

using namespace core;

namespace {

enum Result : uint8_t { UNKNOWN, INVALID, DRAW, WIN };

constexpr int kPawnSquares = 24;

int index(bool white_to_move, Square wk, Square bk, Square pawn) {
  int p = (rank_of(pawn) - RANK_2) * 4 + file_of(pawn);  // files a-d only
  return ((int(white_to_move) * 64 + wk) * 64 + bk) * kPawnSquares + p;
}

struct Bitbase {
  std::vector<uint8_t> result = std::vector<uint8_t>(2 * 64 * 64 * kPawnSquares, UNKNOWN);

  Bitbase() {
    for (int stm = 0; stm < 2; ++stm)
      for (int wk = 0; wk < 64; ++wk)
        for (int bk = 0; bk < 64; ++bk)
          for (int p = 0; p < kPawnSquares; ++p) classify_start(stm, Square(wk), Square(bk), pawn_square(p));
    for (bool changed = true; changed;) {
      changed = false;
      for (int stm = 0; stm < 2; ++stm)
        for (int wk = 0; wk < 64; ++wk)
          for (int bk = 0; bk < 64; ++bk)
            for (int p = 0; p < kPawnSquares; ++p) {
              uint8_t& r = result[size_t(index(stm, Square(wk), Square(bk), pawn_square(p)))];
              if (r != UNKNOWN) continue;
              r = iterate(stm, Square(wk), Square(bk), pawn_square(p));
              changed |= r != UNKNOWN;
            }
    }
  }

  static Square pawn_square(int p) { return make_square(File(p % 4), Rank(RANK_2 + p / 4)); }

  // Positions decided without looking ahead: illegal ones, promotions that cannot be stopped,
  // stalemates and captures of an undefended pawn.
  void classify_start(bool white_to_move, Square wk, Square bk, Square pawn) {
    uint8_t& r = result[size_t(index(white_to_move, wk, bk, pawn))];
    const Bitboard pawn_hits = pawn_attacks(WHITE, pawn);
    if (wk == bk || wk == pawn || bk == pawn || (king_attacks(wk) & square_bb(bk)) ||
        (white_to_move && (pawn_hits & square_bb(bk)))) {
      r = INVALID;
      return;
    }
    if (white_to_move && rank_of(pawn) == RANK_7) {
      const Square queen = pawn + NORTH;
      if (queen != wk && queen != bk &&
          (!(king_attacks(bk) & square_bb(queen)) || (king_attacks(wk) & square_bb(queen))))
        r = WIN;
      return;
    }
    if (!white_to_move) {
      const Bitboard safe = king_attacks(bk) & ~(king_attacks(wk) | pawn_hits);
      if (!safe)
        r = DRAW;  // stalemate (the pawn does not give check here)
      else if ((king_attacks(bk) & square_bb(pawn)) && !(king_attacks(wk) & square_bb(pawn)))
        r = DRAW;
    }
  }

  uint8_t at(bool white_to_move, Square wk, Square bk, Square pawn) const {
    return result[size_t(index(white_to_move, wk, bk, pawn))];
  }

  // One step of retrograde reasoning from the successors' results.
  uint8_t iterate(bool white_to_move, Square wk, Square bk, Square pawn) const {
    bool all = true;  // every successor has the result bad for the side to move
    if (white_to_move) {
      for (Bitboard b = king_attacks(wk) & ~square_bb(pawn); b;) {
        Square to = pop_lsb(b);
        uint8_t r =
            (to == bk || (king_attacks(bk) & square_bb(to))) ? uint8_t(INVALID) : at(false, to, bk, pawn);
        if (r == WIN) return WIN;
        if (r != DRAW && r != INVALID) all = false;
      }
      if (rank_of(pawn) < RANK_7) {
        const Square one = pawn + NORTH;
        if (one != wk && one != bk) {
          uint8_t r = at(false, wk, bk, one);
          if (r == WIN) return WIN;
          if (r != DRAW && r != INVALID) all = false;
          if (rank_of(pawn) == RANK_2 && one + NORTH != wk && one + NORTH != bk) {
            r = at(false, wk, bk, one + NORTH);
            if (r == WIN) return WIN;
            if (r != DRAW && r != INVALID) all = false;
          }
        }
      }
      return all ? DRAW : UNKNOWN;
    }
    for (Bitboard b = king_attacks(bk); b;) {
      Square to = pop_lsb(b);
      if (to == pawn || (king_attacks(wk) & square_bb(to)) || (pawn_attacks(WHITE, pawn) & square_bb(to)))
        continue;
      uint8_t r = at(true, wk, to, pawn);
      if (r == DRAW) return DRAW;
      if (r != WIN && r != INVALID) all = false;
    }
    return all ? WIN : UNKNOWN;
  }
};

const Bitbase& bitbase() {
  static const Bitbase instance;
  return instance;
}

}  // namespace

bool kpk_win(Square strong_king, Square strong_pawn, Square weak_king, bool strong_to_move) {
  if (file_of(strong_pawn) > FILE_D) {  // mirror the e-h files onto d-a
    auto mirror = [](Square s) { return Square(int(s) ^ 7); };
    strong_king = mirror(strong_king), strong_pawn = mirror(strong_pawn), weak_king = mirror(weak_king);
  }
  if (rank_of(strong_pawn) < RANK_2 || rank_of(strong_pawn) > RANK_7) return false;
  return bitbase().at(strong_to_move, strong_king, weak_king, strong_pawn) == WIN;
}

}  // namespace vblitz::eval
