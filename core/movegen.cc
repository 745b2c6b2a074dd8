// Legal move generation with check and pin masks: no pseudo-legal filtering pass is needed.
#include "core/movegen.h"

#include <atomic>

namespace vblitz::core {

static_assert(sizeof(Move) == sizeof(uint16_t), "a Move is stored as its raw 16 bits");

MoveKernels detail::process_move_kernels;

namespace {

// Writes moves with core's own pop-lsb loops.
struct ScalarEmitter {
  // One move from `from` to every square of `targets`.
  Move* from(Square from, Bitboard targets, Move* list) const {
    while (targets) *list++ = Move(from, pop_lsb(targets));
    return list;
  }
  // One move to every square of `targets`, each from the square `offset` behind it.
  Move* shifted(Bitboard targets, int offset, Move* list) const {
    while (targets) {
      Square to = pop_lsb(targets);
      *list++ = Move(Square(int(to) - offset), to);
    }
    return list;
  }
};

// Writes moves with an installed (vector) serializer.
struct KernelEmitter {
  MoveSerializer serialize;
  static uint16_t* raw(Move* list) { return reinterpret_cast<uint16_t*>(list); }
  Move* from(Square from, Bitboard targets, Move* list) const {
    return list + serialize(targets, 1, uint16_t(from << 6), raw(list));
  }
  Move* shifted(Bitboard targets, int offset, Move* list) const {
    return list + serialize(targets, 65, uint16_t(-(offset << 6)), raw(list));
  }
};

// The four promotions to every square of `targets`, queen first.
inline Move* emit_promotions(Bitboard targets, int offset, Move* list) {
  while (targets) {
    Square to = pop_lsb(targets);
    Square from = Square(int(to) - offset);
    for (PieceType pt : {QUEEN, KNIGHT, ROOK, BISHOP}) *list++ = Move::make(from, to, Move::PROMOTION, pt);
  }
  return list;
}

// Pawn moves (en passant aside) of `pawns`. Captures may land on `capture_target`, pushes on
// `push_target`; both already include the check and pin restrictions.
template <GenType T, Color Us, class Emitter>
Move* pawn_moves(const Emitter& emit, Bitboard pawns, Bitboard empty, Bitboard capture_target,
                 Bitboard push_target, Move* list) {
  constexpr Direction Up = pawn_push(Us);
  constexpr Direction UpRight = Us == WHITE ? NORTH_EAST : SOUTH_WEST;
  constexpr Direction UpLeft = Us == WHITE ? NORTH_WEST : SOUTH_EAST;
  constexpr Bitboard Rank7 = Us == WHITE ? rank_bb(RANK_7) : rank_bb(RANK_2);
  constexpr Bitboard Rank3 = Us == WHITE ? rank_bb(RANK_3) : rank_bb(RANK_6);

  Bitboard promoting = pawns & Rank7, others = pawns & ~Rank7;
  if constexpr (T != QUIET) {
    if (promoting) {
      list = emit_promotions(shift<Up>(promoting) & push_target, Up, list);
      list = emit_promotions(shift<UpRight>(promoting) & capture_target, UpRight, list);
      list = emit_promotions(shift<UpLeft>(promoting) & capture_target, UpLeft, list);
    }
    list = emit.shifted(shift<UpRight>(others) & capture_target, UpRight, list);
    list = emit.shifted(shift<UpLeft>(others) & capture_target, UpLeft, list);
  }
  if constexpr (T != NOISY) {
    Bitboard single = shift<Up>(others) & empty;
    Bitboard twice = shift<Up>(single & Rank3) & push_target;
    list = emit.shifted(single & push_target, Up, list);
    list = emit.shifted(twice, 2 * Up, list);
  }
  return list;
}

template <Color Us>
Move* en_passant_moves(const Position& pos, Move* list) {
  Square ep = pos.ep_square();
  if (ep == SQ_NONE) return list;
  constexpr Color Them = ~Us;
  Square ksq = pos.king_square(Us);
  Square captured = ep - pawn_push(Us);
  // A knight's check, or a pawn's other than the captured one, survives any en passant capture.
  if (pos.checkers() & ~square_bb(captured) & pos.pieces(KNIGHT, PAWN)) return list;
  for (Bitboard b = pawn_attacks(Them, ep) & pos.pieces(Us, PAWN); b;) {
    Square from = pop_lsb(b);
    Bitboard occupied = (pos.pieces() ^ square_bb(from) ^ square_bb(captured)) | square_bb(ep);
    if (!pos.slider_attackers(Them, ksq, occupied)) *list++ = Move::make(from, ep, Move::EN_PASSANT);
  }
  return list;
}

template <Color Us>
Move* castling_moves(const Position& pos, Move* list) {
  Square ksq = pos.king_square(Us);
  for (bool king_side : {true, false}) {
    CastlingRights cr = castling_right(Us, king_side);
    if (!pos.can_castle(cr) || pos.castling_impeded(cr)) continue;
    Square rook_from = pos.castling_rook_square(cr);
    Square king_to = relative_square(Us, king_side ? SQ_G1 : SQ_C1);
    // With king and rook lifted, no square the king crosses or lands on may be attacked.
    Bitboard occupied = pos.pieces() ^ square_bb(ksq) ^ square_bb(rook_from);
    bool safe = true;
    for (Bitboard path = between_bb(ksq, king_to); path && safe;)
      safe = !(pos.attackers_to(pop_lsb(path), occupied) & pos.pieces(~Us));
    if (safe) *list++ = Move::make(ksq, rook_from, Move::CASTLING);
  }
  return list;
}

template <GenType T, Color Us, class Emitter>
Move* generate_all(const Emitter& emit, const Position& pos, Move* list) {
  constexpr Color Them = ~Us;
  const Square ksq = pos.king_square(Us);
  const Bitboard checkers = pos.checkers();
  const Bitboard occupied = pos.pieces();
  const Bitboard enemies = pos.pieces(Them);

  if (!more_than_one(checkers)) {
    const Bitboard check_mask = checkers ? between_bb(ksq, lsb(checkers)) : ~Bitboard(0);
    const Bitboard pinned = pos.pinned(Us);
    const Bitboard capture_target = enemies & check_mask;
    const Bitboard push_target = ~occupied & check_mask;
    Bitboard target = 0;
    if constexpr (T != QUIET) target |= capture_target;
    if constexpr (T != NOISY) target |= push_target;

    Bitboard pawns = pos.pieces(Us, PAWN);
    list = pawn_moves<T, Us>(emit, pawns & ~pinned, ~occupied, capture_target, push_target, list);
    for (Bitboard b = pawns & pinned; b;) {
      Square s = pop_lsb(b);
      Bitboard pin_line = line_bb(ksq, s);
      list = pawn_moves<T, Us>(emit, square_bb(s), ~occupied, capture_target & pin_line,
                               push_target & pin_line, list);
    }
    if constexpr (T != QUIET) list = en_passant_moves<Us>(pos, list);

    for (Bitboard b = pos.pieces(Us, KNIGHT) & ~pinned; b;) {
      Square s = pop_lsb(b);
      list = emit.from(s, knight_attacks(s) & target, list);
    }
    for (Bitboard b = pos.pieces(Us, BISHOP, QUEEN); b;) {
      Square s = pop_lsb(b);
      Bitboard to = bishop_attacks(s, occupied) & target;
      if (pinned & square_bb(s)) to &= line_bb(ksq, s);
      list = emit.from(s, to, list);
    }
    for (Bitboard b = pos.pieces(Us, ROOK, QUEEN); b;) {
      Square s = pop_lsb(b);
      Bitboard to = rook_attacks(s, occupied) & target;
      if (pinned & square_bb(s)) to &= line_bb(ksq, s);
      list = emit.from(s, to, list);
    }
    if constexpr (T != NOISY)
      if (!checkers) list = castling_moves<Us>(pos, list);
  }

  Bitboard king_target = 0;
  if constexpr (T != QUIET) king_target |= enemies;
  if constexpr (T != NOISY) king_target |= ~occupied;
  const Bitboard without_king = occupied ^ square_bb(ksq);
  for (Bitboard b = king_attacks(ksq) & king_target; b;) {
    Square to = pop_lsb(b);
    if (!(pos.attackers_to(to, without_king) & enemies)) *list++ = Move(ksq, to);
  }
  return list;
}

// The legal moves of the side to move, counted: pawn moves set-wise (promotions four times),
// unpinned knights and sliders by `count_pieces`, pinned sliders along their pin line, en
// passant and castling as the generator tests them, king moves to unattacked squares.
template <Color Us>
int count_all(PieceMoveCounter count_pieces, const Position& pos) {
  constexpr Color Them = ~Us;
  const Square ksq = pos.king_square(Us);
  const Bitboard checkers = pos.checkers();
  const Bitboard occupied = pos.pieces();
  const Bitboard enemies = pos.pieces(Them);
  int count = 0;

  if (!more_than_one(checkers)) {
    const Bitboard check_mask = checkers ? between_bb(ksq, lsb(checkers)) : ~Bitboard(0);
    const Bitboard pinned = pos.pinned(Us);
    const Bitboard capture_target = enemies & check_mask;
    const Bitboard push_target = ~occupied & check_mask;
    const Bitboard target = capture_target | push_target;

    // Pawns: the unpinned ones set-wise; a pinned one only along its pin line.
    const Bitboard pawns = pos.pieces(Us, PAWN);
    count += count_pawn_moves<Us>(pawns & ~pinned, occupied, capture_target, push_target);
    for (Bitboard b = pawns & pinned; b;) {
      const Square s = pop_lsb(b);
      const Bitboard pin_line = line_bb(ksq, s);
      count +=
          count_pawn_moves<Us>(square_bb(s), occupied, capture_target & pin_line, push_target & pin_line);
    }
    Move ep_moves[2];
    count += int(en_passant_moves<Us>(pos, ep_moves) - ep_moves);

    const Bitboard orthogonal = pos.pieces(Us, ROOK, QUEEN), diagonal = pos.pieces(Us, BISHOP, QUEEN);
    count += count_pieces(orthogonal & ~pinned, diagonal & ~pinned, pos.pieces(Us, KNIGHT) & ~pinned,
                          occupied, target);
    for (Bitboard b = (orthogonal | diagonal) & pinned; b;) {
      const Square s = pop_lsb(b);
      Bitboard to = 0;
      if (orthogonal & square_bb(s)) to |= rook_attacks(s, occupied);
      if (diagonal & square_bb(s)) to |= bishop_attacks(s, occupied);
      count += popcount(to & target & line_bb(ksq, s));
    }
    if (!checkers) {
      Move castles[2];
      count += int(castling_moves<Us>(pos, castles) - castles);
    }
  }

  const Bitboard without_king = occupied ^ square_bb(ksq);
  for (Bitboard b = king_attacks(ksq) & ~pos.pieces(Us); b;)
    count += !(pos.attackers_to(pop_lsb(b), without_king) & enemies);
  return count;
}

// The generator with an installed serializer, kept out of line so that the scalar path keeps
// its inlining (measured: inlining both variants cost the scalar path about a quarter of its
// perft speed).
template <GenType T>
[[gnu::noinline]] Move* generate_with(MoveSerializer serialize, const Position& pos, Move* list) {
  KernelEmitter emit{serialize};
  return pos.side_to_move() == WHITE ? generate_all<T, WHITE>(emit, pos, list)
                                     : generate_all<T, BLACK>(emit, pos, list);
}

}  // namespace

void set_move_serializer(MoveSerializer serializer) { detail::process_move_kernels.serialize = serializer; }

template <GenType T>
Move* generate(const Position& pos, Move* list) {
  if (MoveSerializer serialize = move_kernels().serialize) return generate_with<T>(serialize, pos, list);
  return pos.side_to_move() == WHITE ? generate_all<T, WHITE>(ScalarEmitter(), pos, list)
                                     : generate_all<T, BLACK>(ScalarEmitter(), pos, list);
}

void set_piece_move_counter(PieceMoveCounter counter) { detail::process_move_kernels.count = counter; }

int count_piece_moves(Bitboard orthogonal, Bitboard diagonal, Bitboard knights, Bitboard occupied,
                      Bitboard target) {
  int count = 0;
  for (Bitboard b = knights; b;) count += popcount(knight_attacks(pop_lsb(b)) & target);
  for (Bitboard b = orthogonal; b;) count += popcount(rook_attacks(pop_lsb(b), occupied) & target);
  for (Bitboard b = diagonal; b;) count += popcount(bishop_attacks(pop_lsb(b), occupied) & target);
  return count;
}

int count_legal(const Position& pos) {
  PieceMoveCounter counter = move_kernels().count;
  if (!counter) counter = count_piece_moves;
  return pos.side_to_move() == WHITE ? count_all<WHITE>(counter, pos) : count_all<BLACK>(counter, pos);
}

template Move* generate<NOISY>(const Position&, Move*);
template Move* generate<QUIET>(const Position&, Move*);
template Move* generate<EVASIONS>(const Position&, Move*);
template Move* generate<LEGAL>(const Position&, Move*);

}  // namespace vblitz::core
