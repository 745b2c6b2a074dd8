// Scalar twin of the child-counting kernel: child by child, the board made by core::child_board
// and counted with core's table lookups (magic or PEXT slider attacks, knight and king tables),
// the way core's count_legal counts a position.
#include "core/bitboard.h"
#include "simd/child_count.h"

namespace vblitz::simd {

namespace {

using core::Bitboard;

// Castling squares: those that must be empty, and those the king stands on or crosses.
constexpr Bitboard kShortPath = 0x60, kShortKing = 0x70;  // f1 g1; e1 f1 g1
constexpr Bitboard kLongPath = 0x0E, kLongKing = 0x1C;    // b1 c1 d1; c1 d1 e1

// The legal moves of child board b (the mover plays up the board, as White).
uint64_t count_child(const core::ChildBoard& b) {
  using namespace core;
  const Bitboard us = b.us, them = b.them, occupied = us | them;
  const Bitboard their_pawns = b.pawns & them, their_knights = b.knights & them;
  const Bitboard their_diagonal = b.diagonal & them, their_orthogonal = b.orthogonal & them;
  const Square ksq = lsb(b.kings & us);

  // The enemy's attacks with our king lifted, and the pieces checking it.
  const Bitboard through = occupied ^ square_bb(ksq);
  Bitboard attacked = pawn_attacks_bb<BLACK>(their_pawns) | king_attacks(lsb(b.kings & them));
  for (Bitboard p = their_knights; p;) attacked |= knight_attacks(pop_lsb(p));
  for (Bitboard p = their_diagonal; p;) attacked |= bishop_attacks(pop_lsb(p), through);
  for (Bitboard p = their_orthogonal; p;) attacked |= rook_attacks(pop_lsb(p), through);
  const Bitboard checkers = (knight_attacks(ksq) & their_knights) | (pawn_attacks(WHITE, ksq) & their_pawns) |
                            (bishop_attacks(ksq, occupied) & their_diagonal) |
                            (rook_attacks(ksq, occupied) & their_orthogonal);

  uint64_t count = uint64_t(popcount(king_attacks(ksq) & ~us & ~attacked));
  if (more_than_one(checkers)) return count;

  // Our pieces alone between our king and an enemy slider are pinned.
  Bitboard pinned = 0;
  const Bitboard snipers =
      (bishop_attacks(ksq, them) & their_diagonal) | (rook_attacks(ksq, them) & their_orthogonal);
  for (Bitboard s = snipers; s;) {
    const Square sniper = pop_lsb(s);
    const Bitboard between = between_bb(ksq, sniper) & occupied & ~square_bb(sniper);
    if (!more_than_one(between)) pinned |= between & us;
  }

  const Bitboard check_mask = checkers ? between_bb(ksq, lsb(checkers)) : ~Bitboard(0);
  const Bitboard empty = ~occupied;
  const Bitboard target = ~us & check_mask, captures = them & check_mask, pushes = empty & check_mask;

  // Pawns: set-wise for the unpinned ones, along its pin line for a pinned one.
  const Bitboard our_pawns = b.pawns & us;
  count += uint64_t(count_pawn_moves<WHITE>(our_pawns & ~pinned, occupied, captures, pushes));
  for (Bitboard p = our_pawns & pinned; p;) {
    const Square s = pop_lsb(p);
    const Bitboard pin_line = line_bb(ksq, s);
    count +=
        uint64_t(count_pawn_moves<WHITE>(square_bb(s), occupied, captures & pin_line, pushes & pin_line));
  }

  // Knights (a pinned one never moves), then sliders, a pinned one along its pin line.
  for (Bitboard p = b.knights & us & ~pinned; p;)
    count += uint64_t(popcount(knight_attacks(pop_lsb(p)) & target));
  const Bitboard our_diagonal = b.diagonal & us, our_orthogonal = b.orthogonal & us;
  for (Bitboard p = our_diagonal & ~pinned; p;)
    count += uint64_t(popcount(bishop_attacks(pop_lsb(p), occupied) & target));
  for (Bitboard p = our_orthogonal & ~pinned; p;)
    count += uint64_t(popcount(rook_attacks(pop_lsb(p), occupied) & target));
  for (Bitboard p = (our_diagonal | our_orthogonal) & pinned; p;) {
    const Square s = pop_lsb(p);
    Bitboard attacks = 0;
    if (our_diagonal & square_bb(s)) attacks |= bishop_attacks(s, occupied);
    if (our_orthogonal & square_bb(s)) attacks |= rook_attacks(s, occupied);
    count += uint64_t(popcount(attacks & target & line_bb(ksq, s)));
  }

  // Castling: the right, the path empty, the king's squares unattacked (not in check).
  const Bitboard castling = b.castling;
  count += (castling & square_bb(SQ_H1)) && !(occupied & kShortPath) && !(attacked & kShortKing);
  count += (castling & square_bb(SQ_A1)) && !(occupied & kLongPath) && !(attacked & kLongKing);
  return count;
}

}  // namespace

void count_child_moves_scalar(const core::ChildBatch& batch, uint64_t* counts) {
  for (size_t i = 0; i < batch.size; ++i) counts[i] = count_child(core::child_board(batch, i));
}

}  // namespace vblitz::simd
