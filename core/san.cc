// SAN parsing by matching the notation's constraints against the legal moves.
#include "core/san.h"

#include <string>

#include "core/movegen.h"

namespace vblitz::core {

Move parse_san(const Position& pos, std::string_view san) {
  std::string s(san);
  while (!s.empty() && std::string("+#!?").find(s.back()) != std::string::npos) s.pop_back();
  for (char& c : s)
    if (c == '0') c = 'O';  // 0-0 and 0-0-0 (digits never start another SAN move)
  const MoveList<LEGAL> moves(pos);

  if (s == "O-O" || s == "O-O-O") {
    for (Move m : moves)
      if (m.kind() == Move::CASTLING && (m.to() > m.from()) == (s == "O-O")) return m;
    return Move::none();
  }
  // Promotion suffix: "=Q" or a bare "Q" after the destination.
  PieceType promotion = NO_PIECE_TYPE;
  if (s.size() >= 2 && std::string("NBRQ").find(s.back()) != std::string::npos) {
    promotion = PieceType(std::string(" PNBRQK").find(s.back()));
    s.pop_back();
    if (!s.empty() && s.back() == '=') s.pop_back();
  }
  if (s.size() < 2) return Move::none();
  const char file = s[s.size() - 2], rank = s[s.size() - 1];
  if (file < 'a' || file > 'h' || rank < '1' || rank > '8') return Move::none();
  const Square to = make_square(File(file - 'a'), Rank(rank - '1'));
  s.resize(s.size() - 2);
  PieceType piece = PAWN;
  if (!s.empty() && std::string("NBRQK").find(s[0]) != std::string::npos) {
    piece = PieceType(std::string(" PNBRQK").find(s[0]));
    s.erase(0, 1);
  }
  if (!s.empty() && s.back() == 'x') s.pop_back();
  int from_file = -1, from_rank = -1;  // disambiguation
  for (char c : s) {
    if (c >= 'a' && c <= 'h')
      from_file = c - 'a';
    else if (c >= '1' && c <= '8')
      from_rank = c - '1';
    else
      return Move::none();
  }
  Move found = Move::none();
  for (Move m : moves) {
    if (m.kind() == Move::CASTLING || type_of(pos.moved_piece(m)) != piece || m.to() != to) continue;
    if ((m.kind() == Move::PROMOTION ? m.promotion_type() : NO_PIECE_TYPE) != promotion) continue;
    if ((from_file >= 0 && file_of(m.from()) != from_file) ||
        (from_rank >= 0 && rank_of(m.from()) != from_rank))
      continue;
    if (found != Move::none()) return Move::none();  // ambiguous
    found = m;
  }
  return found;
}

std::string to_san(const Position& pos, Move m) {
  std::string san;
  const PieceType piece = type_of(pos.moved_piece(m));
  if (m.kind() == Move::CASTLING) {
    san = m.to() > m.from() ? "O-O" : "O-O-O";
  } else {
    if (piece != PAWN) {
      san += " PNBRQK"[piece];
      bool clash = false, file_clash = false, rank_clash = false;
      for (Move other : MoveList<LEGAL>(pos)) {
        if (other == m || other.to() != m.to() || other.kind() == Move::CASTLING ||
            type_of(pos.moved_piece(other)) != piece)
          continue;
        clash = true;
        file_clash |= file_of(other.from()) == file_of(m.from());
        rank_clash |= rank_of(other.from()) == rank_of(m.from());
      }
      if (clash && (!file_clash || rank_clash)) san += char('a' + file_of(m.from()));
      if (clash && file_clash) san += char('1' + rank_of(m.from()));
    } else if (pos.is_capture(m)) {
      san += char('a' + file_of(m.from()));
    }
    if (pos.is_capture(m)) san += 'x';
    san += char('a' + file_of(m.to()));
    san += char('1' + rank_of(m.to()));
    if (m.kind() == Move::PROMOTION) san += std::string("=") + " PNBRQK"[m.promotion_type()];
  }
  Position after = pos;
  StateInfo st;
  after.do_move(m, st);
  if (after.in_check()) san += MoveList<LEGAL>(after).size() ? '+' : '#';
  return san;
}

}  // namespace vblitz::core
