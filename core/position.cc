// Position: make/unmake with incremental keys, check information, repetition and draws.
#include "core/position.h"

#include <cassert>
#include <cstddef>
#include <cstring>
#include <sstream>

#include "core/movegen.h"
#include "core/text.h"

namespace vblitz::core {

void Position::clear() { *this = Position(); }

void Position::put_piece(Piece p, Square s) {
  board_[s] = p;
  Bitboard b = square_bb(s);
  by_type_[NO_PIECE_TYPE] |= b;
  by_type_[type_of(p)] |= b;
  by_color_[color_of(p)] |= b;
  ++piece_count_[p];
}

void Position::remove_piece(Square s) {
  Piece p = board_[s];
  Bitboard b = square_bb(s);
  by_type_[NO_PIECE_TYPE] ^= b;
  by_type_[type_of(p)] ^= b;
  by_color_[color_of(p)] ^= b;
  board_[s] = NO_PIECE;
  --piece_count_[p];
}

void Position::move_piece(Square from, Square to) {
  Piece p = board_[from];
  Bitboard b = square_bb(from) | square_bb(to);
  by_type_[NO_PIECE_TYPE] ^= b;
  by_type_[type_of(p)] ^= b;
  by_color_[color_of(p)] ^= b;
  board_[from] = NO_PIECE;
  board_[to] = p;
}

void Position::add_castling_right(Color c, Square rook_from) {
  Square king_from = king_square(c);
  bool king_side = rook_from > king_from;
  CastlingRights cr = castling_right(c, king_side);
  Square king_to = relative_square(c, king_side ? SQ_G1 : SQ_C1);
  Square rook_to = relative_square(c, king_side ? SQ_F1 : SQ_D1);
  st_->castling_rights |= cr;
  castling_rights_mask_[king_from] |= cr;
  castling_rights_mask_[rook_from] |= cr;
  castling_rook_square_[cr] = rook_from;
  castling_path_[cr] = (between_bb(rook_from, rook_to) | between_bb(king_from, king_to)) &
                       ~(square_bb(king_from) | square_bb(rook_from));
}

Key Position::compute_pawn_key() const {
  Key k = zobrist::no_pawns;
  for (Bitboard b = pieces(PAWN); b;) {
    Square s = pop_lsb(b);
    k ^= zobrist::psq[board_[s]][s];
  }
  return k;
}

Key Position::compute_pawn_king_key() const {
  Key k = compute_pawn_key();
  for (Bitboard b = pieces(KING); b;) {
    Square s = pop_lsb(b);
    k ^= zobrist::psq[board_[s]][s];
  }
  return k;
}

Key Position::compute_material_key() const {
  Key k = 0;
  for (int p = 0; p < PIECE_NB; ++p)
    for (int n = 0; n < piece_count_[p]; ++n) k ^= zobrist::material[p][n];
  return k;
}

Key Position::compute_key() const {
  Key k = zobrist::castling[st_->castling_rights];
  for (Bitboard b = pieces(); b;) {
    Square s = pop_lsb(b);
    k ^= zobrist::psq[board_[s]][s];
  }
  if (st_->ep_square != SQ_NONE) k ^= zobrist::en_passant_file[file_of(st_->ep_square)];
  if (side_to_move_ == BLACK) k ^= zobrist::side;
  return k;
}

void Position::set_state() {
  st_->key = compute_key();
  st_->pawn_key = compute_pawn_key();
  st_->pawn_king_key = compute_pawn_king_key();
  st_->material_key = compute_material_key();
  st_->checkers = attackers_to(king_square(side_to_move_)) & pieces(~side_to_move_);
  set_check_info();
}

void Position::set_check_info() {
  for (Color c : {WHITE, BLACK}) {
    st_->blockers_for_king[c] = 0;
    Square ksq = king_square(c);
    Bitboard snipers =
        ((rook_attacks(ksq, 0) & pieces(QUEEN, ROOK)) | (bishop_attacks(ksq, 0) & pieces(QUEEN, BISHOP))) &
        pieces(~c);
    Bitboard occupancy = pieces() ^ snipers;
    while (snipers) {
      Square sniper = pop_lsb(snipers);
      Bitboard b = between_bb(ksq, sniper) & occupancy;
      if (b && !more_than_one(b)) st_->blockers_for_king[c] |= b;
    }
  }
}

// Records how many plies back the same position occurred (negative if it had repeated then).
void Position::update_repetition() {
  int end = std::min<int>(st_->rule50, st_->plies_from_null);
  st_->repetition = 0;
  if (end < 4) return;
  const StateInfo* stp = st_->previous->previous;
  for (int i = 4; i <= end; i += 2) {
    stp = stp->previous->previous;
    if (stp->key == st_->key) {
      st_->repetition = stp->repetition ? -i : i;
      return;
    }
  }
}

Bitboard Position::attackers_to(Square s, Bitboard occupied) const {
  return (pawn_attacks(BLACK, s) & pieces(WHITE, PAWN)) | (pawn_attacks(WHITE, s) & pieces(BLACK, PAWN)) |
         (knight_attacks(s) & pieces(KNIGHT)) | (rook_attacks(s, occupied) & pieces(ROOK, QUEEN)) |
         (bishop_attacks(s, occupied) & pieces(BISHOP, QUEEN)) | (king_attacks(s) & pieces(KING));
}

Bitboard Position::slider_attackers(Color c, Square s, Bitboard occupied) const {
  return ((rook_attacks(s, occupied) & pieces(ROOK, QUEEN)) |
          (bishop_attacks(s, occupied) & pieces(BISHOP, QUEEN))) &
         pieces(c) & occupied;
}

bool Position::gives_check(Move m) const {
  const Color us = side_to_move_;
  const Square ksq = king_square(~us), from = m.from(), to = m.to();
  switch (m.kind()) {
    case Move::CASTLING: {
      // The rook checks from its new square, or the king and rook leaving their squares open
      // a line for another slider (Chess960). `to` is the rook's square.
      const Square rook_to = relative_square(us, to > from ? SQ_F1 : SQ_D1);
      const Square king_to = relative_square(us, to > from ? SQ_G1 : SQ_C1);
      const Bitboard occupied =
          (pieces() ^ square_bb(from) ^ square_bb(to)) | square_bb(rook_to) | square_bb(king_to);
      return (rook_attacks(rook_to, occupied) & square_bb(ksq)) ||
             (slider_attackers(us, ksq, occupied) & ~square_bb(king_to) & ~square_bb(rook_to));
    }
    case Move::EN_PASSANT: {
      const Square captured = to - pawn_push(us);
      const Bitboard occupied = (pieces() ^ square_bb(from) ^ square_bb(captured)) | square_bb(to);
      return (pawn_attacks(us, to) & square_bb(ksq)) || slider_attackers(us, ksq, occupied);
    }
    default: {
      if ((blockers_for_king(~us) & square_bb(from)) && !aligned(from, to, ksq)) return true;  // discovered
      const PieceType pt = m.kind() == Move::PROMOTION ? m.promotion_type() : type_of(piece_on(from));
      if (pt == PAWN) return pawn_attacks(us, to) & square_bb(ksq);
      if (pt == KING) return false;
      return attacks_bb(pt, to, pieces() ^ square_bb(from)) & square_bb(ksq);
    }
  }
}

Position::CheckSquares Position::check_squares() const {
  const Color them = ~side_to_move_;
  const Square ksq = king_square(them);
  CheckSquares squares{};
  squares.by_type[PAWN] = pawn_attacks(them, ksq);
  squares.by_type[KNIGHT] = attacks_bb(KNIGHT, ksq, 0);
  squares.by_type[BISHOP] = bishop_attacks(ksq, pieces());
  squares.by_type[ROOK] = rook_attacks(ksq, pieces());
  squares.by_type[QUEEN] = squares.by_type[BISHOP] | squares.by_type[ROOK];
  return squares;
}

bool Position::gives_check(Move m, const CheckSquares& squares) const {
  // The enemy king is not in check now, so a slider's own square never hides a line to the
  // king that its new square would open: the squares seen from the king with every piece in
  // place are exact. Special moves change more than one square and take the long way.
  if (m.kind() != Move::NORMAL) return gives_check(m);
  const Square from = m.from(), to = m.to();
  if ((blockers_for_king(~side_to_move_) & square_bb(from)) &&
      !aligned(from, to, king_square(~side_to_move_)))
    return true;  // discovered
  return squares.by_type[type_of(piece_on(from))] & square_bb(to);
}

void Position::do_castling(Color us, Square king_from, Square& rook_from, Square& king_to, Square& rook_to,
                           bool forward) {
  bool king_side = rook_from > king_from;
  king_to = relative_square(us, king_side ? SQ_G1 : SQ_C1);
  rook_to = relative_square(us, king_side ? SQ_F1 : SQ_D1);
  Piece king = make_piece(us, KING), rook = make_piece(us, ROOK);
  // Remove both first: in Chess960 the squares may overlap.
  remove_piece(forward ? king_from : king_to);
  remove_piece(forward ? rook_from : rook_to);
  put_piece(king, forward ? king_to : king_from);
  put_piece(rook, forward ? rook_to : rook_from);
}

void Position::do_move(Move m, StateInfo& new_st) {
  std::memcpy(static_cast<void*>(&new_st), st_, offsetof(StateInfo, key));
  new_st.previous = st_;
  st_ = &new_st;
  Key k = st_->previous->key ^ zobrist::side;
  ++game_ply_;
  st_->rule50 += st_->rule50 < kMaxRule50;
  st_->plies_from_null += st_->plies_from_null < kMaxRule50;

  Color us = side_to_move_, them = ~us;
  Square from = m.from(), to = m.to();
  Piece pc = board_[from];
  Piece captured = m.kind() == Move::EN_PASSANT ? make_piece(them, PAWN) : board_[to];

  if (m.kind() == Move::CASTLING) {
    Square rook_from = to, king_to, rook_to;
    do_castling(us, from, rook_from, king_to, rook_to, true);
    Piece rook = make_piece(us, ROOK);
    k ^= zobrist::psq[pc][from] ^ zobrist::psq[pc][king_to] ^ zobrist::psq[rook][rook_from] ^
         zobrist::psq[rook][rook_to];
    st_->pawn_king_key ^= zobrist::psq[pc][from] ^ zobrist::psq[pc][king_to];
    captured = NO_PIECE;
  }

  if (captured) {
    Square capsq = m.kind() == Move::EN_PASSANT ? to - pawn_push(us) : to;
    if (type_of(captured) == PAWN) {
      st_->pawn_key ^= zobrist::psq[captured][capsq];
      st_->pawn_king_key ^= zobrist::psq[captured][capsq];
    }
    remove_piece(capsq);
    k ^= zobrist::psq[captured][capsq];
    st_->material_key ^= zobrist::material[captured][piece_count_[captured]];
    st_->rule50 = 0;
  }

  if (st_->ep_square != SQ_NONE) {
    k ^= zobrist::en_passant_file[file_of(st_->ep_square)];
    st_->ep_square = SQ_NONE;
  }

  uint8_t touched = castling_rights_mask_[from] | castling_rights_mask_[to];
  if (st_->castling_rights && touched) {
    k ^= zobrist::castling[st_->castling_rights];
    st_->castling_rights &= ~touched;
    k ^= zobrist::castling[st_->castling_rights];
  }

  if (m.kind() != Move::CASTLING) {
    move_piece(from, to);
    k ^= zobrist::psq[pc][from] ^ zobrist::psq[pc][to];
  }

  if (type_of(pc) == PAWN) {
    st_->rule50 = 0;
    if ((int(to) ^ int(from)) == 16 && (pawn_attacks(us, to - pawn_push(us)) & pieces(them, PAWN))) {
      st_->ep_square = to - pawn_push(us);
      k ^= zobrist::en_passant_file[file_of(st_->ep_square)];
      st_->pawn_key ^= zobrist::psq[pc][from] ^ zobrist::psq[pc][to];
      st_->pawn_king_key ^= zobrist::psq[pc][from] ^ zobrist::psq[pc][to];
    } else if (m.kind() == Move::PROMOTION) {
      Piece promoted = make_piece(us, m.promotion_type());
      remove_piece(to);
      put_piece(promoted, to);
      k ^= zobrist::psq[pc][to] ^ zobrist::psq[promoted][to];
      st_->pawn_key ^= zobrist::psq[pc][from];
      st_->pawn_king_key ^= zobrist::psq[pc][from];
      st_->material_key ^=
          zobrist::material[promoted][piece_count_[promoted] - 1] ^ zobrist::material[pc][piece_count_[pc]];
    } else {
      st_->pawn_key ^= zobrist::psq[pc][from] ^ zobrist::psq[pc][to];
      st_->pawn_king_key ^= zobrist::psq[pc][from] ^ zobrist::psq[pc][to];
    }
  } else if (type_of(pc) == KING && m.kind() != Move::CASTLING) {
    st_->pawn_king_key ^= zobrist::psq[pc][from] ^ zobrist::psq[pc][to];
  }

  st_->captured = captured;
  st_->key = k;
  side_to_move_ = them;
  st_->checkers = attackers_to(king_square(them)) & pieces(us);
  set_check_info();
  update_repetition();
  assert(consistency_error().empty());  // debug builds: board, counts and every key recomputed
}

void Position::undo_move(Move m) {
  side_to_move_ = ~side_to_move_;
  Color us = side_to_move_;
  Square from = m.from(), to = m.to();

  if (m.kind() == Move::PROMOTION) {
    remove_piece(to);
    put_piece(make_piece(us, PAWN), to);
  }
  if (m.kind() == Move::CASTLING) {
    Square rook_from = to, king_to, rook_to;
    do_castling(us, from, rook_from, king_to, rook_to, false);
  } else {
    move_piece(to, from);
    if (st_->captured) {
      Square capsq = m.kind() == Move::EN_PASSANT ? to - pawn_push(us) : to;
      put_piece(st_->captured, capsq);
    }
  }
  st_ = st_->previous;
  --game_ply_;
  assert(consistency_error().empty());
}

void Position::do_null_move(StateInfo& new_st) {
  std::memcpy(static_cast<void*>(&new_st), st_, sizeof(StateInfo));
  new_st.previous = st_;
  st_ = &new_st;
  if (st_->ep_square != SQ_NONE) {
    st_->key ^= zobrist::en_passant_file[file_of(st_->ep_square)];
    st_->ep_square = SQ_NONE;
  }
  st_->key ^= zobrist::side;
  st_->rule50 += st_->rule50 < kMaxRule50;
  st_->plies_from_null = 0;
  st_->captured = NO_PIECE;
  st_->repetition = 0;
  side_to_move_ = ~side_to_move_;
  st_->checkers = 0;  // the board is unchanged, so the pins copied above still hold
}

void Position::undo_null_move() {
  st_ = st_->previous;
  side_to_move_ = ~side_to_move_;
}

bool Position::is_legal(Move m) const {
  const Color us = side_to_move_;
  const Square from = m.from(), to = m.to(), ksq = king_square(us);
  const Piece piece = board_[from];
  if (piece == NO_PIECE || color_of(piece) != us) return false;
  // Promotions, en passant and castling are rare as hash or killer moves: ask the generator.
  if (m.kind() != Move::NORMAL) return MoveList<LEGAL>(*this).contains(m);
  if (m != Move(from, to) || (pieces(us) & square_bb(to))) return false;  // stray promotion bits
  const PieceType pt = type_of(piece);
  if (pt == KING)
    return (king_attacks(from) & square_bb(to)) &&
           !(attackers_to(to, pieces() ^ square_bb(from)) & pieces(~us));
  if (pt == PAWN) {
    if (relative_rank(us, to) == RANK_8) return false;  // only as a promotion
    Bitboard reach = pawn_attacks(us, from) & pieces(~us);
    const Square one = from + pawn_push(us);
    if (empty(one)) {
      reach |= square_bb(one);
      if (relative_rank(us, from) == RANK_2 && empty(one + pawn_push(us)))
        reach |= square_bb(one + pawn_push(us));
    }
    if (!(reach & square_bb(to))) return false;
  } else if (!(attacks_bb(pt, from, pieces()) & square_bb(to))) {
    return false;
  }
  // The generator's restrictions: block or capture a single checker, keep a pinned piece on its line.
  if (const Bitboard checks = checkers()) {
    if (more_than_one(checks) || !(between_bb(ksq, lsb(checks)) & square_bb(to))) return false;
  }
  return !(pinned(us) & square_bb(from)) || aligned(from, to, ksq);
}

bool Position::has_insufficient_material() const {
  if (pieces(PAWN, ROOK) | pieces(QUEEN)) return false;
  Bitboard bishops = pieces(BISHOP);
  if (pieces(KNIGHT)) return !bishops && !more_than_one(pieces(KNIGHT));
  return !(bishops & kDarkSquares) || !(bishops & ~kDarkSquares);
}

bool Position::is_draw(int ply) const {
  if (st_->rule50 > 99 && (!in_check() || MoveList<LEGAL>(*this).size() > 0)) return true;
  if (st_->repetition && st_->repetition < ply) return true;
  return has_insufficient_material();
}

std::string Position::to_uci(Move m) const {
  if (m == Move::none()) return "(none)";
  if (m == Move::null()) return "0000";
  Square from = m.from(), to = m.to();
  if (m.kind() == Move::CASTLING && !chess960_) to = make_square(to > from ? FILE_G : FILE_C, rank_of(from));
  std::string s{char('a' + file_of(from)), char('1' + rank_of(from)), char('a' + file_of(to)),
                char('1' + rank_of(to))};
  if (m.kind() == Move::PROMOTION) s += " pnbrqk"[m.promotion_type()];
  return s;
}

Move Position::parse_uci(std::string_view text) const {
  const std::string lower = to_lower(text);
  for (Move m : MoveList<LEGAL>(*this)) {
    if (to_uci(m) == lower) return m;
    // Accept king-takes-rook castling in standard chess too, as some GUIs send it.
    if (m.kind() == Move::CASTLING && !chess960_) {
      std::string king_takes_rook{char('a' + file_of(m.from())), char('1' + rank_of(m.from())),
                                  char('a' + file_of(m.to())), char('1' + rank_of(m.to()))};
      if (king_takes_rook == lower) return m;
    }
  }
  return Move::none();
}

std::string Position::consistency_error() const {
  std::ostringstream err;
  if (popcount(pieces(WHITE, KING)) != 1 || popcount(pieces(BLACK, KING)) != 1) err << "king count; ";
  if (pieces(WHITE) & pieces(BLACK)) err << "colour overlap; ";
  for (int p = 0; p < PIECE_NB; ++p) {
    Piece pc = Piece(p);
    if (type_of(pc) == NO_PIECE_TYPE || type_of(pc) > KING) continue;
    if (popcount(pieces(color_of(pc), type_of(pc))) != piece_count_[pc]) err << "piece count; ";
  }
  for (int s = 0; s < 64; ++s) {
    Piece pc = board_[s];
    bool on_bb = pieces() & square_bb(Square(s));
    if (bool(pc) != on_bb) err << "board/bitboard mismatch; ";
    if (pc && !(pieces(color_of(pc), type_of(pc)) & square_bb(Square(s)))) err << "piece bitboard; ";
  }
  if (st_->key != compute_key()) err << "key; ";
  if (st_->pawn_key != compute_pawn_key()) err << "pawn key; ";
  if (st_->pawn_king_key != compute_pawn_king_key()) err << "pawn+king key; ";
  if (st_->material_key != compute_material_key()) err << "material key; ";
  if (st_->checkers != (attackers_to(king_square(side_to_move_)) & pieces(~side_to_move_)))
    err << "checkers; ";
  if (attackers_to(king_square(~side_to_move_)) & pieces(side_to_move_)) err << "side not to move in check; ";
  return err.str();
}

void Position::set_chess960(bool on) {
  bool needed = false;
  for (Color c : {WHITE, BLACK})
    for (bool king_side : {true, false}) {
      const CastlingRights cr = castling_right(c, king_side);
      needed |= can_castle(cr) && (file_of(king_square(c)) != FILE_E ||
                                   file_of(castling_rook_square(cr)) != (king_side ? FILE_H : FILE_A));
    }
  chess960_ = on || needed;
}

}  // namespace vblitz::core
