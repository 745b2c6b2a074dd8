// The board: piece placement, side to move, castling (standard and Chess960), en passant,
// move counters and incrementally updated Zobrist keys. make/unmake do no heap work: each
// ply's state lives in a StateInfo the caller owns (on its stack or in a deque).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/bitboard.h"
#include "core/types.h"
#include "core/zobrist.h"

namespace vblitz::core {

// Per-ply state. The first block is copied into the next ply by do_move; the rest is
// recomputed there. States form a chain back to the root through `previous`.
struct StateInfo {
  // --- copied by do_move ---
  Key pawn_key;
  Key pawn_king_key;  // pawns plus both kings: the king-safety hash key
  Key material_key;
  uint8_t castling_rights;
  uint16_t rule50;  // plies since the last capture or pawn move (saturating; FEN values above
                    // kMaxRule50 are read as kMaxRule50)
  uint16_t plies_from_null;
  Square ep_square;  // set only when an enemy pawn could capture there
  // --- recomputed by do_move ---
  Key key;
  Bitboard checkers;
  Bitboard blockers_for_king[COLOR_NB];  // pieces (either colour) shielding that king from a slider
  Piece captured;
  int repetition;  // plies back to the same position (negative: it occurred twice before), or 0
  StateInfo* previous;
};

// The largest halfmove clock kept; counting stops there (the fifty-move rule acts at 100).
constexpr uint16_t kMaxRule50 = 60000;

class Position {
 public:
  static constexpr const char* kStartFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

  Position() = default;
  Position(const Position&) = default;
  Position& operator=(const Position&) = default;

  // Sets the position from a 6-field FEN or 4-field EPD (X-FEN or Shredder-FEN castling).
  // Returns an error message naming the problem and leaves *this and `si` untouched on failure.
  // `chess960` forces Chess960 move notation; it is also switched on by castling rights that
  // only make sense in Chess960.
  std::optional<std::string> set(std::string_view fen, StateInfo& si, bool chess960 = false);
  // FEN of the position (Shredder-FEN castling letters in Chess960 mode).
  std::string fen() const;

  // --- board queries ---
  Piece piece_on(Square s) const { return board_[s]; }
  bool empty(Square s) const { return board_[s] == NO_PIECE; }
  Bitboard pieces() const { return by_type_[NO_PIECE_TYPE]; }
  Bitboard pieces(PieceType pt) const { return by_type_[pt]; }
  Bitboard pieces(PieceType a, PieceType b) const { return by_type_[a] | by_type_[b]; }
  Bitboard pieces(Color c) const { return by_color_[c]; }
  Bitboard pieces(Color c, PieceType pt) const { return by_color_[c] & by_type_[pt]; }
  Bitboard pieces(Color c, PieceType a, PieceType b) const {
    return by_color_[c] & (by_type_[a] | by_type_[b]);
  }
  int count(Piece p) const { return piece_count_[p]; }
  Square king_square(Color c) const { return lsb(pieces(c, KING)); }
  Color side_to_move() const { return side_to_move_; }
  int game_ply() const { return game_ply_; }
  bool is_chess960() const { return chess960_; }
  // Switches between standard and Chess960 move notation (UCI_Chess960) without touching the
  // game's history. Castling rights that only make sense in Chess960 keep it on.
  void set_chess960(bool on);

  // --- castling ---
  bool can_castle(CastlingRights cr) const { return st_->castling_rights & cr; }
  CastlingRights castling_rights() const { return CastlingRights(st_->castling_rights); }
  Square castling_rook_square(CastlingRights cr) const { return castling_rook_square_[cr]; }
  // True if a piece stands between king and rook or on their destination squares.
  bool castling_impeded(CastlingRights cr) const { return pieces() & castling_path_[cr]; }

  // --- state ---
  Square ep_square() const { return st_->ep_square; }
  Key key() const { return st_->key; }
  Key pawn_key() const { return st_->pawn_key; }
  Key pawn_king_key() const { return st_->pawn_king_key; }
  Key material_key() const { return st_->material_key; }
  int rule50_count() const { return st_->rule50; }
  Bitboard checkers() const { return st_->checkers; }
  bool in_check() const { return st_->checkers != 0; }
  Bitboard blockers_for_king(Color c) const { return st_->blockers_for_king[c]; }
  Bitboard pinned(Color c) const { return st_->blockers_for_king[c] & pieces(c); }

  // --- attacks ---
  // All pieces of both colours attacking s, given the occupancy.
  Bitboard attackers_to(Square s, Bitboard occupied) const;
  Bitboard attackers_to(Square s) const { return attackers_to(s, pieces()); }
  // Sliders of colour c that would attack s if the pieces in `occupied` stood on the board.
  Bitboard slider_attackers(Color c, Square s, Bitboard occupied) const;

  // --- moves ---
  bool is_capture(Move m) const {
    return (!empty(m.to()) && m.kind() != Move::CASTLING) || m.kind() == Move::EN_PASSANT;
  }
  Piece moved_piece(Move m) const { return board_[m.from()]; }
  // The key after move m, for prefetching its hash entry: exact for ordinary moves and
  // captures that change neither castling rights nor the en passant square, close otherwise.
  Key key_after(Move m) const {
    const Piece pc = board_[m.from()], captured = board_[m.to()];
    Key k = st_->key ^ zobrist::side ^ zobrist::psq[pc][m.from()] ^ zobrist::psq[pc][m.to()];
    return captured && m.kind() != Move::CASTLING ? k ^ zobrist::psq[captured][m.to()] : k;
  }
  // Plays a legal move. `new_st` must outlive the move (until undo_move).
  void do_move(Move m, StateInfo& new_st);
  // True if legal move m checks the enemy king, directly or by discovery (without playing it).
  bool gives_check(Move m) const;
  // For each piece type, the squares from which it would check the enemy king now: computed once
  // for a position whose many moves are tested by the overload below.
  struct CheckSquares {
    Bitboard by_type[PIECE_TYPE_NB];
  };
  CheckSquares check_squares() const;
  // gives_check(m), with this position's check_squares() (two table lookups for a quiet move).
  bool gives_check(Move m, const CheckSquares& squares) const;
  // Takes back m, which must be the last move played.
  void undo_move(Move m);
  // Forgets the moves that led here: repetitions are looked for from this position on, and the
  // states behind it may be reused (long replays such as a game chain's decoding).
  void forget_history() {
    st_->plies_from_null = 0;
    st_->previous = nullptr;
  }
  // Passes the turn; the side to move must not be in check.
  void do_null_move(StateInfo& new_st);
  void undo_null_move();
  // True if m, any 16-bit value, is one of the legal moves of this position (hash, killer and
  // book moves); ordinary moves are checked without generating the move list.
  bool is_legal(Move m) const;

  // --- draws ---
  // Fifty-move rule, repetition (twofold inside the search tree, threefold before it, with
  // `ply` plies played since the root), or insufficient material. Does not detect mate.
  bool is_draw(int ply) const;
  // Neither side has material that can ever mate (K v K, K+minor v K, bishops all on one colour).
  bool has_insufficient_material() const;

  // --- notation ---
  // UCI coordinate notation: e2e4, e7e8q; castling as e1g1, or king-takes-rook in Chess960.
  std::string to_uci(Move m) const;
  // The legal move written as `text` in UCI notation, or Move::none().
  Move parse_uci(std::string_view text) const;

  // --- consistency ---
  // Recomputes all keys from scratch (for tests of the incremental updates).
  Key compute_key() const;
  Key compute_pawn_key() const;
  Key compute_pawn_king_key() const;
  Key compute_material_key() const;
  // Debug check of the internal invariants; returns an empty string when all hold.
  std::string consistency_error() const;
  // A colour-flipped copy (board mirrored top to bottom, colours swapped) as a FEN.
  std::string flipped_fen() const;

 private:
  friend class FenParser;

  void clear();
  void put_piece(Piece p, Square s);
  void remove_piece(Square s);
  void move_piece(Square from, Square to);
  void add_castling_right(Color c, Square rook_from);
  void set_state();
  void set_check_info();
  void update_repetition();
  // Moves king and rook for castling (do = true) or back (do = false).
  void do_castling(Color us, Square king_from, Square& rook_from, Square& king_to, Square& rook_to,
                   bool forward);

  Piece board_[SQUARE_NB] = {};
  Bitboard by_type_[PIECE_TYPE_NB] = {};
  Bitboard by_color_[COLOR_NB] = {};
  int piece_count_[PIECE_NB] = {};
  uint8_t castling_rights_mask_[SQUARE_NB] = {};
  Square castling_rook_square_[CASTLING_RIGHT_NB] = {};
  Bitboard castling_path_[CASTLING_RIGHT_NB] = {};
  StateInfo* st_ = nullptr;
  int game_ply_ = 0;
  Color side_to_move_ = WHITE;
  bool chess960_ = false;
};

}  // namespace vblitz::core
