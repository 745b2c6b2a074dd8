// The game-chain format: encoding finds the moves between two records of a game by a short
// search; decoding replays them.
#include "tune/game_chain.h"

#include <algorithm>
#include <bit>
#include <memory>
#include <stdexcept>

#include "core/bitboard.h"

namespace vblitz::tune {

namespace {

using core::Bitboard;

void put_varint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out += char(uint8_t(v | 0x80));
    v >>= 7;
  }
  out += char(uint8_t(v));
}

// Reads a varint of at most 64 bits in its shortest form at `at`; returns the reason it is not one.
const char* get_varint(std::string_view bytes, size_t& at, uint64_t& v) {
  v = 0;
  for (int shift = 0;; shift += 7) {
    if (at == bytes.size()) return "truncated entry";
    const uint8_t byte = uint8_t(bytes[at++]);
    if (shift == 63 && byte > 1) return "a varint longer than 64 bits";
    v |= uint64_t(byte & 0x7f) << shift;
    if (!(byte & 0x80)) return byte == 0 && shift ? "a varint not in its shortest form" : nullptr;
  }
}

uint64_t zigzag(int64_t v) { return (uint64_t(v) << 1) ^ uint64_t(v >> 63); }
int64_t unzigzag(uint64_t z) { return int64_t(z >> 1) ^ -int64_t(z & 1); }

// y % n, leaving y / n in y; 32-bit division when y fits (most steps' numbers do).
inline unsigned divide(uint64_t& y, unsigned n) {
  if (y >> 32 == 0) {
    const uint32_t q = uint32_t(y) / n, r = uint32_t(y) - q * n;
    y = q;
    return r;
  }
  const uint64_t q = y / n, r = y - q * n;
  y = q;
  return unsigned(r);
}

// The board a chain replays moves on: what the move order and the records read (pieces, side to
// move, castling, en passant square, halfmove clock, the checkers and pinned pieces of the side to
// move, and the record's piece nibbles), set from a keyframe's record and moved on as
// core::Position::do_move moves a position, without its keys and history.
class Board {
 public:
  // Stands on the record's position (the record passed PackedPosition::check(): known pieces, one
  // king each) when core::Position::set would read its FEN, as it would read it; false when not.
  bool set(const PackedPosition& r) {
    using namespace core;
    std::fill(std::begin(by_type_), std::end(by_type_), 0);
    std::fill(std::begin(by_color_), std::end(by_color_), 0);
    std::fill(std::begin(board_), std::end(board_), NO_PIECE);
    nibbles_ = 0;
    for (int k = 15; k >= 0; --k) nibbles_ = nibbles_ << 8 | r.bytes[size_t(8 + k)];
    int i = 0;
    for (Bitboard b = r.occupied(); b; b &= b - 1, ++i) {
      const Square s = lsb(b);
      const Piece p = r.piece(i);
      board_[s] = p;
      by_type_[NO_PIECE_TYPE] |= square_bb(s);
      by_type_[type_of(p)] |= square_bb(s);
      by_color_[color_of(p)] |= square_bb(s);
    }
    for (Color c : {WHITE, BLACK})
      if (popcount(pieces(c, PAWN)) > 8 || popcount(pieces(c)) > 16) return false;
    if (pieces(PAWN) & (kRank1BB | kRank8BB)) return false;
    us_ = r.side_to_move();
    rule50_ = uint8_t(r.rule50());
    // Castling: a right needs its king on its first rank and a rook of its side beyond it (the
    // outermost is the castling rook).
    rights_ = 0;
    std::fill(std::begin(rights_mask_), std::end(rights_mask_), 0);
    for (CastlingRights cr : {WHITE_OO, WHITE_OOO, BLACK_OO, BLACK_OOO}) {
      if (!(r.castling_rights() & cr)) continue;
      const Color c = cr & (WHITE_OO | WHITE_OOO) ? WHITE : BLACK;
      const bool king_side = cr & (WHITE_OO | BLACK_OO);
      const Square king_from = king_square(c);
      const Rank first = relative_rank(c, RANK_1);
      if (rank_of(king_from) != first) return false;
      Square rook_from = SQ_NONE;
      for (int f = king_side ? FILE_H : FILE_A; f != file_of(king_from) && rook_from == SQ_NONE;
           f += king_side ? -1 : 1)
        if (board_[make_square(File(f), first)] == make_piece(c, ROOK))
          rook_from = make_square(File(f), first);
      if (rook_from == SQ_NONE) return false;
      const Square king_to = relative_square(c, king_side ? SQ_G1 : SQ_C1);
      const Square rook_to = relative_square(c, king_side ? SQ_F1 : SQ_D1);
      rights_ |= cr;
      rook_square_[cr] = rook_from;
      castling_path_[cr] = (between_bb(rook_from, rook_to) | between_bb(king_from, king_to)) &
                           ~(square_bb(king_from) | square_bb(rook_from));
      rights_mask_[king_from] |= cr;
      rights_mask_[rook_from] |= cr;
    }
    // En passant: the square a pawn of the other side just passed, kept when a pawn can take there.
    ep_ = SQ_NONE;
    if (r.ep_square() != SQ_NONE) {
      const Square ep = r.ep_square();
      if (relative_rank(us_, ep) != RANK_6 || board_[ep - pawn_push(us_)] != make_piece(~us_, PAWN) ||
          board_[ep] != NO_PIECE || board_[ep + pawn_push(us_)] != NO_PIECE)
        return false;
      if (pawn_attacks(~us_, ep) & pieces(us_, PAWN)) ep_ = ep;
    }
    if (attackers(king_square(~us_), pieces()) & pieces(us_)) return false;  // a king to take
    update_checks();
    return popcount(checkers_) <= 2;
  }

  // --- what core::Position answers the same ---
  core::Piece piece_on(core::Square s) const { return board_[s]; }
  Bitboard pieces() const { return by_type_[core::NO_PIECE_TYPE]; }
  Bitboard pieces(core::PieceType pt) const { return by_type_[pt]; }
  Bitboard pieces(core::PieceType a, core::PieceType b) const { return by_type_[a] | by_type_[b]; }
  Bitboard pieces(core::Color c) const { return by_color_[c]; }
  Bitboard pieces(core::Color c, core::PieceType pt) const { return by_color_[c] & by_type_[pt]; }
  Bitboard pieces(core::Color c, core::PieceType a, core::PieceType b) const {
    return by_color_[c] & (by_type_[a] | by_type_[b]);
  }
  core::Square king_square(core::Color c) const { return core::lsb(pieces(c, core::KING)); }
  core::Color side_to_move() const { return us_; }
  core::Square ep_square() const { return ep_; }
  int rule50_count() const { return rule50_; }  // capped at 255, as the record holds it
  uint8_t castling_rights() const { return rights_; }
  bool can_castle(core::CastlingRights cr) const { return rights_ & cr; }
  bool castling_impeded(core::CastlingRights cr) const { return pieces() & castling_path_[cr]; }
  core::Square castling_rook_square(core::CastlingRights cr) const { return rook_square_[cr]; }
  Bitboard checkers() const { return checkers_; }
  Bitboard pinned() const { return pinned_; }  // the side to move's pieces pinned to its king
  // The piece codes of the occupied squares in square order, four bits each (bytes 8-23 of the
  // record).
  unsigned __int128 nibbles() const { return nibbles_; }
  Bitboard slider_attackers(core::Color c, core::Square s, Bitboard occupied) const {
    return ((core::rook_attacks(s, occupied) & pieces(core::ROOK, core::QUEEN)) |
            (core::bishop_attacks(s, occupied) & pieces(core::BISHOP, core::QUEEN))) &
           pieces(c) & occupied;
  }

  // Plays legal move m as core::Position::do_move does.
  void do_move(core::Move m) {
    using namespace core;
    const Color us = us_, them = ~us;
    const Square from = m.from(), to = m.to();
    const Piece piece = board_[from];
    rule50_ += rule50_ < 255;
    ep_ = SQ_NONE;
    if (m.kind() == Move::CASTLING) {  // "king takes own rook"
      const bool king_side = to > from;
      remove(from);
      remove(to);
      put(relative_square(us, king_side ? SQ_G1 : SQ_C1), piece);
      put(relative_square(us, king_side ? SQ_F1 : SQ_D1), make_piece(us, ROOK));
    } else {
      if (m.kind() == Move::EN_PASSANT || board_[to] != NO_PIECE) {
        remove(m.kind() == Move::EN_PASSANT ? to - pawn_push(us) : to);
        rule50_ = 0;
      }
      remove(from);
      put(to, m.kind() == Move::PROMOTION ? make_piece(us, m.promotion_type()) : piece);
      if (type_of(piece) == PAWN) {
        rule50_ = 0;
        if ((int(to) ^ int(from)) == 16 && (pawn_attacks(us, to - pawn_push(us)) & pieces(them, PAWN)))
          ep_ = to - pawn_push(us);
      }
    }
    rights_ &= uint8_t(~(rights_mask_[from] | rights_mask_[to]));
    us_ = them;
    update_checks();
  }

 private:
  // All pieces attacking s, with `occupied` blocking the sliders.
  Bitboard attackers(core::Square s, Bitboard occupied) const {
    using namespace core;
    return (pawn_attacks(BLACK, s) & pieces(WHITE, PAWN)) | (pawn_attacks(WHITE, s) & pieces(BLACK, PAWN)) |
           (knight_attacks(s) & pieces(KNIGHT)) | (king_attacks(s) & pieces(KING)) |
           (rook_attacks(s, occupied) & pieces(ROOK, QUEEN)) |
           (bishop_attacks(s, occupied) & pieces(BISHOP, QUEEN));
  }

  // The checkers and pinned pieces of the side to move.
  void update_checks() {
    using namespace core;
    const Color them = ~us_;
    const Square ksq = king_square(us_);
    checkers_ = attackers(ksq, pieces()) & pieces(them);
    Bitboard snipers =
        ((rook_attacks(ksq, 0) & pieces(ROOK, QUEEN)) | (bishop_attacks(ksq, 0) & pieces(BISHOP, QUEEN))) &
        pieces(them);
    const Bitboard occupancy = pieces() ^ snipers;
    pinned_ = 0;
    while (snipers) {
      const Bitboard b = between_bb(ksq, pop_lsb(snipers)) & occupancy;
      if (b && !more_than_one(b)) pinned_ |= b;
    }
    pinned_ &= pieces(us_);
  }

  // Take the piece off s and put p on s, keeping the nibbles (one a piece, in square order) in
  // step: the nibbles above s's place move down or up by one.
  void remove(core::Square s) {
    const core::Piece p = board_[s];
    const Bitboard b = core::square_bb(s);
    const int i = 4 * core::popcount(pieces() & (b - 1));
    const unsigned __int128 below = ((unsigned __int128)(1) << i) - 1;
    nibbles_ = (nibbles_ & below) | ((nibbles_ >> 4) & ~below);
    by_type_[core::NO_PIECE_TYPE] ^= b;
    by_type_[core::type_of(p)] ^= b;
    by_color_[core::color_of(p)] ^= b;
    board_[s] = core::NO_PIECE;
  }
  void put(core::Square s, core::Piece p) {
    const Bitboard b = core::square_bb(s);
    const int i = 4 * core::popcount(pieces() & (b - 1));
    const unsigned __int128 below = ((unsigned __int128)(1) << i) - 1;
    nibbles_ = (nibbles_ & below) | ((unsigned __int128)(p) << i) | ((nibbles_ & ~below) << 4);
    by_type_[core::NO_PIECE_TYPE] |= b;
    by_type_[core::type_of(p)] |= b;
    by_color_[core::color_of(p)] |= b;
    board_[s] = p;
  }

  Bitboard by_type_[core::PIECE_TYPE_NB] = {};
  Bitboard by_color_[core::COLOR_NB] = {};
  Bitboard checkers_ = 0, pinned_ = 0;
  unsigned __int128 nibbles_ = 0;
  Bitboard castling_path_[core::CASTLING_RIGHT_NB] = {};
  core::Square rook_square_[core::CASTLING_RIGHT_NB] = {};
  uint8_t rights_mask_[core::SQUARE_NB] = {};
  core::Piece board_[core::SQUARE_NB] = {};
  core::Color us_ = core::WHITE;
  core::Square ep_ = core::SQ_NONE;
  uint8_t rule50_ = 0, rights_ = 0;
};

// The moves of a position in core::generate<LEGAL>'s order, counted without being written: runs
// of moves (a piece's targets, a set of pawn moves, one en passant or castling move) in that order,
// the generator's logic step for step, and the move of an index made from them on demand. With
// `every_king_step` (version 2) the king's own moves, last in that order, are all its steps to
// squares its side does not hold, legal or not (the attack tests they save were two fifths of the
// count; into_check() tells the illegal ones apart); without (version 1), the legal ones only.
// The files fix this order: a later change to core's generator must leave this copy as it is.
class LegalMoves {
 public:
  unsigned count(const Board& pos, bool every_king_step) {
    size_ = total_ = 0;
    if (pos.side_to_move() == core::WHITE)
      collect<core::WHITE>(pos, every_king_step);
    else
      collect<core::BLACK>(pos, every_king_step);
    return total_;
  }

  // The move number `index` (< count()).
  core::Move at(unsigned index) const {
    for (const Run* r = runs_;; ++r) {
      const unsigned n = size(*r);
      if (index < n) return make(*r, index);
      index -= n;
    }
  }

  // Calls f(index, move) for each move in order until it returns true; returns whether one did.
  template <class F>
  bool find_if(F f) const {
    unsigned index = 0;
    for (const Run* r = runs_; r != runs_ + size_; ++r)
      for (unsigned k = 0, n = size(*r); k < n; ++k)
        if (f(index++, make(*r, k))) return true;
    return false;
  }

  // True when m, one of the moves, is a king step onto an attacked square.
  static bool into_check(const Board& pos, core::Move m) {
    const core::Square ksq = pos.king_square(pos.side_to_move());
    if (m.from() != ksq || m.kind() != core::Move::NORMAL) return false;
    const Bitboard without_king = pos.pieces() ^ core::square_bb(ksq);
    return pos.side_to_move() == core::WHITE ? attackers<core::WHITE>(pos, m.to(), without_king)
                                             : attackers<core::BLACK>(pos, m.to(), without_king);
  }

 private:
  // kFrom: from one square (base = from << 6) to each target; kShifted: pawn moves to each target
  // from `offset` behind it (base = -(offset << 6)); kPromotions: the same, four promotions each;
  // kSingle: the one move `base`.
  enum Kind : uint8_t { kFrom, kShifted, kPromotions, kSingle };
  struct Run {
    Bitboard targets;
    uint16_t base;
    Kind kind;
  };

  static unsigned size(const Run& r) {
    return unsigned(core::popcount(r.targets)) << (r.kind == kPromotions ? 2 : 0);
  }
  static unsigned nth_square(Bitboard b, unsigned n) {
    for (; n; --n) b &= b - 1;
    return core::lsb(b);
  }
  // The move number k (< size(r)) of run r.
  static core::Move make(const Run& r, unsigned k) {
    switch (r.kind) {
      case kFrom: return core::Move(uint16_t(r.base + nth_square(r.targets, k)));
      case kShifted: return core::Move(uint16_t(r.base + 65 * nth_square(r.targets, k)));
      case kPromotions: {
        static constexpr uint16_t kPieces[4] = {3 << 12, 0 << 12, 2 << 12, 1 << 12};  // Q N R B
        return core::Move(
            uint16_t(r.base + 65 * nth_square(r.targets, k / 4) + core::Move::PROMOTION + kPieces[k % 4]));
      }
      default: return core::Move(r.base);
    }
  }
  void add(Kind kind, Bitboard targets, int base) {
    if (!targets) return;
    runs_[size_++] = {targets, uint16_t(base), kind};
    total_ += unsigned(core::popcount(targets)) << (kind == kPromotions ? 2 : 0);
  }
  void add_shifted(Kind kind, Bitboard targets, int offset) { add(kind, targets, -(offset * 64)); }
  void add_single(core::Move m) { add(kSingle, 1, m.raw()); }

  template <core::Color Us>
  void pawn_moves(Bitboard pawns, Bitboard empty, Bitboard capture_target, Bitboard push_target) {
    using namespace core;
    constexpr Direction Up = pawn_push(Us);
    constexpr Direction UpRight = Us == WHITE ? NORTH_EAST : SOUTH_WEST;
    constexpr Direction UpLeft = Us == WHITE ? NORTH_WEST : SOUTH_EAST;
    constexpr Bitboard Rank7 = Us == WHITE ? rank_bb(RANK_7) : rank_bb(RANK_2);
    constexpr Bitboard Rank3 = Us == WHITE ? rank_bb(RANK_3) : rank_bb(RANK_6);
    const Bitboard promoting = pawns & Rank7, others = pawns & ~Rank7;
    if (promoting) {
      add_shifted(kPromotions, shift<Up>(promoting) & push_target, Up);
      add_shifted(kPromotions, shift<UpRight>(promoting) & capture_target, UpRight);
      add_shifted(kPromotions, shift<UpLeft>(promoting) & capture_target, UpLeft);
    }
    add_shifted(kShifted, shift<UpRight>(others) & capture_target, UpRight);
    add_shifted(kShifted, shift<UpLeft>(others) & capture_target, UpLeft);
    const Bitboard single = shift<Up>(others) & empty;
    add_shifted(kShifted, single & push_target, Up);
    add_shifted(kShifted, shift<Up>(single & Rank3) & push_target, 2 * Up);
  }

  // The pieces of Us's opponent that attack s with `occupied` blocking the sliders.
  template <core::Color Us>
  static Bitboard attackers(const Board& pos, core::Square s, Bitboard occupied) {
    using namespace core;
    constexpr Color Them = ~Us;
    return (pawn_attacks(Us, s) & pos.pieces(Them, PAWN)) | (knight_attacks(s) & pos.pieces(Them, KNIGHT)) |
           (king_attacks(s) & pos.pieces(Them, KING)) |
           (bishop_attacks(s, occupied) & pos.pieces(Them, BISHOP, QUEEN)) |
           (rook_attacks(s, occupied) & pos.pieces(Them, ROOK, QUEEN));
  }

  template <core::Color Us>
  void collect(const Board& pos, bool every_king_step) {
    using namespace core;
    constexpr Color Them = ~Us;
    const Square ksq = pos.king_square(Us);
    const Bitboard checkers = pos.checkers(), occupied = pos.pieces(), enemies = pos.pieces(Them);
    if (!more_than_one(checkers)) {
      const Bitboard check_mask = checkers ? between_bb(ksq, lsb(checkers)) : ~Bitboard(0);
      const Bitboard pinned = pos.pinned();
      const Bitboard capture_target = enemies & check_mask, push_target = ~occupied & check_mask;
      const Bitboard target = capture_target | push_target;
      const Bitboard pawns = pos.pieces(Us, PAWN);
      pawn_moves<Us>(pawns & ~pinned, ~occupied, capture_target, push_target);
      for (Bitboard b = pawns & pinned; b;) {
        const Square s = pop_lsb(b);
        const Bitboard pin_line = line_bb(ksq, s);
        pawn_moves<Us>(square_bb(s), ~occupied, capture_target & pin_line, push_target & pin_line);
      }
      // En passant: a knight's check, or a pawn's other than the captured one, survives it.
      const Square ep = pos.ep_square();
      if (ep != SQ_NONE) {
        const Square captured = ep - pawn_push(Us);
        if (!(checkers & ~square_bb(captured) & pos.pieces(KNIGHT, PAWN)))
          for (Bitboard b = pawn_attacks(Them, ep) & pos.pieces(Us, PAWN); b;) {
            const Square from = pop_lsb(b);
            const Bitboard after = (occupied ^ square_bb(from) ^ square_bb(captured)) | square_bb(ep);
            if (!pos.slider_attackers(Them, ksq, after)) add_single(Move::make(from, ep, Move::EN_PASSANT));
          }
      }
      for (Bitboard b = pos.pieces(Us, KNIGHT) & ~pinned; b;) {
        const Square s = pop_lsb(b);
        add(kFrom, knight_attacks(s) & target, s << 6);
      }
      for (Bitboard b = pos.pieces(Us, BISHOP, QUEEN); b;) {
        const Square s = pop_lsb(b);
        Bitboard to = bishop_attacks(s, occupied) & target;
        if (pinned & square_bb(s)) to &= line_bb(ksq, s);
        add(kFrom, to, s << 6);
      }
      for (Bitboard b = pos.pieces(Us, ROOK, QUEEN); b;) {
        const Square s = pop_lsb(b);
        Bitboard to = rook_attacks(s, occupied) & target;
        if (pinned & square_bb(s)) to &= line_bb(ksq, s);
        add(kFrom, to, s << 6);
      }
      // Castling: with king and rook lifted, no square the king crosses or lands on attacked.
      if (!checkers)
        for (bool king_side : {true, false}) {
          const CastlingRights cr = castling_right(Us, king_side);
          if (!pos.can_castle(cr) || pos.castling_impeded(cr)) continue;
          const Square rook_from = pos.castling_rook_square(cr);
          const Square king_to = relative_square(Us, king_side ? SQ_G1 : SQ_C1);
          const Bitboard lifted = occupied ^ square_bb(ksq) ^ square_bb(rook_from);
          bool safe = true;
          for (Bitboard path = between_bb(ksq, king_to); path && safe;)
            safe = !attackers<Us>(pos, pop_lsb(path), lifted);
          if (safe) add_single(Move::make(ksq, rook_from, Move::CASTLING));
        }
    }
    Bitboard king_to = king_attacks(ksq) & ~pos.pieces(Us);
    if (!every_king_step) {
      const Bitboard without_king = occupied ^ square_bb(ksq);
      for (Bitboard b = king_to; b;) {
        const Square to = pop_lsb(b);
        if (attackers<Us>(pos, to, without_king)) king_to ^= square_bb(to);
      }
    }
    add(kFrom, king_to, ksq << 6);
  }

  Run runs_[128];
  unsigned size_ = 0, total_ = 0;
};

// The record of the board's position, `plies` after `previous` (whose result it keeps), with
// `white_score`, as PackedPosition::pack packs a position.
PackedPosition pack(const Board& pos, const PackedPosition& previous, int plies, int white_score) {
  PackedPosition p;
  const uint64_t occupied = pos.pieces();
  const uint64_t low = uint64_t(pos.nibbles()), high = uint64_t(pos.nibbles() >> 64);
  for (int k = 0; k < 8; ++k) {
    p.bytes[size_t(k)] = uint8_t(occupied >> (8 * k));
    p.bytes[size_t(8 + k)] = uint8_t(low >> (8 * k));
    p.bytes[size_t(16 + k)] = uint8_t(high >> (8 * k));
  }
  const uint16_t score = uint16_t(int16_t(std::clamp(white_score, -32767, 32767)));
  const int ply = std::min(int(previous.ply()) + plies, 65535);
  p.bytes[24] = uint8_t(score);
  p.bytes[25] = uint8_t(score >> 8);
  p.bytes[26] = uint8_t(ply);
  p.bytes[27] = uint8_t(ply >> 8);
  p.bytes[28] = previous.bytes[28];
  p.bytes[29] = uint8_t(pos.side_to_move() | (pos.castling_rights() << 1));
  p.bytes[30] = uint8_t(pos.ep_square() == core::SQ_NONE ? 64 : pos.ep_square());
  p.bytes[31] = uint8_t(pos.rule50_count());
  return p;
}

// The position a chain stands on: set from a keyframe, moved on by the steps.
class Cursor {
 public:
  explicit Cursor(bool every_king_step) : every_king_step_(every_king_step) {}

  // Stands on the record's position; false when the record is no position a game can reach (a
  // keyframe then, and no step may follow it).
  bool set(const PackedPosition& record) {
    record_ = record;
    valid_ = board_.set(record);
    return valid_;
  }
  bool valid() const { return valid_; }
  const PackedPosition& record() const { return record_; }
  const Board& board() const { return board_; }

  // The number of moves here (LegalMoves order).
  unsigned moves() { return legal_.count(board_, every_king_step_); }
  // Plays the move of that index (< moves()); false for a king step into check.
  bool play(unsigned index) {
    const core::Move m = legal_.at(index);
    if (every_king_step_ && LegalMoves::into_check(board_, m)) return false;
    board_.do_move(m);
    return true;
  }

  // The record of the position now, `plies` after record(), with `white_score`.
  PackedPosition record_after(int plies, int white_score) const {
    return pack(board_, record_, plies, white_score);
  }

  // Moves on to `record`, whose position the cursor stands on.
  void arrive(const PackedPosition& record) { record_ = record; }

 private:
  PackedPosition record_;
  Board board_;
  bool valid_ = false;
  bool every_king_step_;
  LegalMoves legal_;
};

// The record a step reaches from the cursor's: the score difference (zigzag) and the plies played.
const char* arrive(Cursor& cursor, int plies, uint64_t zigzag_difference, PackedPosition& record) {
  if (zigzag_difference > 2 * 65535) return "a score out of range";
  const int64_t score = int64_t(cursor.record().white_score()) + unzigzag(zigzag_difference);
  if (score < -32767 || score > 32767) return "a score out of range";
  record = cursor.record_after(plies, int(score));
  cursor.arrive(record);
  return nullptr;
}

// A step of version 2 from the cursor's record: plays the moves of x (>= 1) and stands on the
// record reached, or returns the reason x is no step from there.
const char* play_step(Cursor& cursor, uint64_t x, PackedPosition& record) {
  uint64_t y = x - 1;
  int plies = 1;
  if (divide(y, 2)) plies = 2 + int(divide(y, 7));
  for (int i = 0; i < plies; ++i) {
    const unsigned n = cursor.moves();
    if (n == 0) return "a move from a position without moves";
    if (!cursor.play(divide(y, n))) return "a king move into check";
  }
  return arrive(cursor, plies, y, record);
}

// A step of version 1 (x - 1 = zigzag(score difference) * 8 + plies - 1, then a byte a move index)
// from the cursor's record, its move bytes at `at`.
const char* play_step_v1(Cursor& cursor, uint64_t x, std::string_view bytes, size_t& at,
                         PackedPosition& record) {
  const int plies = int((x - 1) & 7) + 1;
  if (bytes.size() - at < size_t(plies)) return "truncated moves";
  for (int i = 0; i < plies; ++i) {
    const unsigned index = uint8_t(bytes[at++]);
    if (index >= cursor.moves()) return "a move index past the legal moves";
    cursor.play(index);
  }
  return arrive(cursor, plies, (x - 1) >> 3, record);
}

// The number of a step of version 2 (see play_step): its moves' indices and move counts (first
// ply first) and its score difference; 0 when it does not fit in 64 bits.
uint64_t step_number(const unsigned* index, const unsigned* count, int plies, int score_difference) {
  unsigned __int128 y = zigzag(score_difference);
  for (int i = plies - 1; i >= 0; --i) y = y * count[i] + index[i];
  y = plies == 1 ? y * 2 : (y * 7 + unsigned(plies - 2)) * 2 + 1;
  return y + 1 > ~uint64_t(0) ? 0 : uint64_t(y + 1);
}

// The keyframe entry of version 2 (x = 0 and the record, see game_chain.h) for a checked record.
void put_keyframe(std::string& out, const PackedPosition& r) {
  out += '\0';
  out.append(reinterpret_cast<const char*>(r.bytes.data()), 8);
  out.append(reinterpret_cast<const char*>(r.bytes.data()) + 8, size_t(std::popcount(r.occupied()) + 1) / 2);
  put_varint(out, r.bytes[28] + 3u * (r.bytes[29] + 32u * ((r.bytes[30] + 1u) % 65u)));
  put_varint(out, r.rule50());
  put_varint(out, r.ply());
  put_varint(out, zigzag(r.white_score()));
}

// Reads the keyframe of version 2 after its x; returns the reason it is none.
std::optional<std::string> get_keyframe(std::string_view bytes, size_t& at, PackedPosition& p) {
  p = PackedPosition();
  if (bytes.size() - at < 8) return "truncated keyframe";
  std::copy_n(bytes.begin() + long(at), 8, p.bytes.begin());
  at += 8;
  const size_t nibble_bytes = size_t(std::popcount(p.occupied()) + 1) / 2;
  if (nibble_bytes > 16) return "more than 32 pieces";
  if (bytes.size() - at < nibble_bytes) return "truncated keyframe";
  std::copy_n(bytes.begin() + long(at), nibble_bytes, p.bytes.begin() + 8);
  at += nibble_bytes;
  uint64_t fields[4];
  for (uint64_t& field : fields)
    if (const char* error = get_varint(bytes, at, field)) return std::string(error) + " in a keyframe";
  if (fields[0] >= 3 * 32 * 65 || fields[1] > 255 || fields[2] > 65535 || fields[3] > 65535)
    return "a keyframe field out of range";
  p.bytes[28] = uint8_t(fields[0] % 3);
  p.bytes[29] = uint8_t(fields[0] / 3 % 32);
  p.bytes[30] = uint8_t((fields[0] / 96 + 64) % 65);
  p.bytes[31] = uint8_t(fields[1]);
  p.bytes[26] = uint8_t(fields[2]);
  p.bytes[27] = uint8_t(fields[2] >> 8);
  const uint16_t score = uint16_t(unzigzag(fields[3]));
  p.bytes[24] = uint8_t(score);
  p.bytes[25] = uint8_t(score >> 8);
  return p.check();
}

// The encoder's search for the moves between two records of a game.
class PathFinder {
 public:
  // Finds `plies` legal moves from `from` (standing on `previous`) to the target record (score
  // and all): their indices in the move order of version 2 and the move counts go to index[] and
  // count[]. Only pieces on squares that differ from the target move, and at most 20,000 nodes
  // are searched: a path it misses costs a keyframe, never a wrong record.
  bool find(const Board& from, const PackedPosition& previous, const PackedPosition& target, int plies) {
    std::fill(std::begin(board_), std::end(board_), core::NO_PIECE);
    int i = 0;
    for (uint64_t b = target.occupied(); b; b &= b - 1, ++i) board_[core::lsb(b)] = target.piece(i);
    previous_ = &previous;
    target_ = &target;
    occupied_ = target.occupied();
    plies_ = plies;
    budget_ = 20000;
    return search(from, 0);
  }
  unsigned index[kChainMaxPlies], count[kChainMaxPlies];

 private:
  bool search(const Board& pos, int depth) {
    if (depth == plies_)
      return pos.pieces() == occupied_ && pack(pos, *previous_, plies_, target_->white_score()) == *target_;
    // A move changes the occupancy of at most four squares (castling).
    if (std::popcount(pos.pieces() ^ occupied_) > 4 * (plies_ - depth) || --budget_ < 0) return false;
    LegalMoves& legal = legal_[depth];
    count[depth] = legal.count(pos, true);
    const bool last = depth + 1 == plies_;
    return legal.find_if([&](unsigned k, core::Move m) {
      if (pos.piece_on(m.from()) == board_[m.from()] || LegalMoves::into_check(pos, m)) return false;
      // The last move must leave the target's occupancy (castling aside, it empties `from` and
      // fills `to`, en passant emptying the captured pawn's square too).
      if (last && m.kind() != core::Move::CASTLING) {
        Bitboard after = (pos.pieces() ^ core::square_bb(m.from())) | core::square_bb(m.to());
        if (m.kind() == core::Move::EN_PASSANT)
          after ^= core::square_bb(m.to() - core::pawn_push(pos.side_to_move()));
        if (after != occupied_) return false;
      }
      Board next = pos;
      next.do_move(m);
      index[depth] = k;
      return search(next, depth + 1);
    });
  }

  core::Piece board_[64];
  const PackedPosition* previous_ = nullptr;
  const PackedPosition* target_ = nullptr;
  Bitboard occupied_ = 0;  // the target's
  int plies_ = 0, budget_ = 0;
  LegalMoves legal_[kChainMaxPlies];
};

}  // namespace

std::string encode_chain(const std::vector<PackedPosition>& records, ChainStats* stats) {
  std::string out(kChainMagic);
  ChainStats s;
  auto cursor = std::make_unique<Cursor>(true);
  auto finder = std::make_unique<PathFinder>();
  for (const PackedPosition& r : records) {
    ++s.records;
    const PackedPosition& previous = cursor->record();
    const int plies = int(r.ply()) - int(previous.ply());
    if (cursor->valid() && plies >= 1 && plies <= kChainMaxPlies && r.result() == previous.result() &&
        finder->find(cursor->board(), previous, r, plies)) {
      const uint64_t x = step_number(finder->index, finder->count, plies,
                                     int(r.white_score()) - int(previous.white_score()));
      PackedPosition decoded;
      // The step as the decoder reads it: a keyframe instead unless it gives back the record.
      if (x && !play_step(*cursor, x, decoded) && decoded == r) {
        put_varint(out, x);
        s.plies += size_t(plies);
        continue;
      }
    }
    if (auto error = r.check())
      throw std::invalid_argument("record " + std::to_string(s.records - 1) + ": " + *error);
    put_keyframe(out, r);
    cursor->set(r);
    ++s.keyframes;
  }
  s.bytes = out.size();
  if (stats) *stats = s;
  return out;
}

std::optional<std::string> decode_chain(std::string_view bytes, std::vector<PackedPosition>& out) {
  const bool v1 = bytes.substr(0, kChainMagicV1.size()) == kChainMagicV1;
  if (!v1 && bytes.substr(0, kChainMagic.size()) != kChainMagic)
    return "not a game chain (no VBC2 or VBC1 magic)";
  auto cursor = std::make_unique<Cursor>(!v1);
  size_t at = kChainMagic.size();
  while (at < bytes.size()) {
    const size_t entry = at;
    const auto fail = [entry](const std::string& why) {
      return "entry at byte " + std::to_string(entry) + ": " + why;
    };
    uint64_t x = 0;
    if (const char* error = get_varint(bytes, at, x)) return fail(error);
    PackedPosition p;
    if (x == 0) {
      if (v1) {
        if (bytes.size() - at < PackedPosition::kBytes) return fail("truncated keyframe");
        std::copy_n(bytes.begin() + long(at), PackedPosition::kBytes, p.bytes.begin());
        at += PackedPosition::kBytes;
        if (auto error = p.check()) return fail(*error);
      } else if (auto error = get_keyframe(bytes, at, p)) {
        return fail(*error);
      }
      cursor->set(p);
    } else if (!cursor->valid()) {
      return fail("a step without a position to start from");
    } else if (const char* error = v1 ? play_step_v1(*cursor, x, bytes, at, p) : play_step(*cursor, x, p)) {
      return fail(error);
    }
    out.push_back(p);
  }
  return std::nullopt;
}

}  // namespace vblitz::tune
