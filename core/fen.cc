// FEN and EPD: parsing with validation (every rejection names its reason) and output.
#include <cctype>
#include <charconv>
#include <sstream>
#include <vector>

#include "core/position.h"
#include "core/text.h"

namespace vblitz::core {

namespace {

constexpr std::string_view kPieceLetters = " PNBRQK  pnbrqk";

std::string square_name(Square s) { return {char('a' + file_of(s)), char('1' + rank_of(s))}; }

std::vector<std::string_view> split_fields(std::string_view text) {
  std::vector<std::string_view> fields;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    size_t start = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i > start) fields.push_back(text.substr(start, i - start));
  }
  return fields;
}

// Parses a whole non-negative decimal number, or returns -1.
long parse_count(std::string_view text) {
  long value = -1;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 0) return -1;
  return value;
}

}  // namespace

// Builds a Position field by field; any error leaves the caller's position untouched.
class FenParser {
 public:
  static std::optional<std::string> parse(std::string_view text, Position& pos, StateInfo& si,
                                          bool chess960) {
    std::vector<std::string_view> f = split_fields(text);
    if (f.size() < 4 || f.size() > 6)
      return "FEN has " + std::to_string(f.size()) + " fields, expected 4 (EPD) to 6";
    pos = Position();
    si = StateInfo();
    si.ep_square = SQ_NONE;
    pos.st_ = &si;
    pos.chess960_ = chess960;
    if (auto err = placement(f[0], pos)) return err;
    if (f[1] != "w" && f[1] != "b") return "side to move must be 'w' or 'b', not " + quote(f[1]);
    pos.side_to_move_ = f[1] == "w" ? WHITE : BLACK;
    if (auto err = castling(f[2], pos)) return err;
    if (auto err = en_passant(f[3], pos)) return err;
    long rule50 = 0, fullmove = 1;
    if (f.size() >= 5 && (rule50 = parse_count(f[4])) < 0)
      return "halfmove clock " + quote(f[4]) + " is not a non-negative number";
    if (f.size() >= 6 && ((fullmove = parse_count(f[5])) < 0))
      return "fullmove number " + quote(f[5]) + " is not a non-negative number";
    si.rule50 = uint16_t(std::min(rule50, long(kMaxRule50)));
    pos.game_ply_ = int(std::max(2 * (std::min(fullmove, 100000L) - 1), 0L)) + (pos.side_to_move_ == BLACK);
    pos.set_state();
    Color us = pos.side_to_move_;
    if (pos.attackers_to(pos.king_square(~us)) & pos.pieces(us))
      return std::string("the side not to move (") + (us == WHITE ? "Black" : "White") + ") is in check";
    if (popcount(si.checkers) > 2) return "the side to move is in check by more than two pieces";
    return std::nullopt;
  }

 private:
  static std::optional<std::string> placement(std::string_view text, Position& pos) {
    int rank = 7, file = 0;
    for (char c : text) {
      if (c == '/') {
        if (file != 8)
          return "rank " + std::to_string(rank + 1) + " describes " + std::to_string(file) +
                 " files, expected 8";
        if (--rank < 0) return "FEN placement has more than 8 ranks";
        file = 0;
      } else if (c >= '1' && c <= '8') {
        file += c - '0';
        if (file > 8) return "rank " + std::to_string(rank + 1) + " describes more than 8 files";
      } else if (std::isdigit(static_cast<unsigned char>(c))) {
        return std::string("empty-square count '") + c + "' is not from 1 to 8";
      } else {
        size_t idx = kPieceLetters.find(c);
        if (idx == std::string_view::npos || c == ' ')
          return "unknown piece letter " + quote(std::string_view(&c, 1));
        if (file > 7) return "rank " + std::to_string(rank + 1) + " describes more than 8 files";
        pos.put_piece(Piece(idx), make_square(File(file), Rank(rank)));
        ++file;
      }
    }
    if (rank != 0) return "FEN placement has " + std::to_string(8 - rank) + " ranks, expected 8";
    if (file != 8) return "rank 1 describes " + std::to_string(file) + " files, expected 8";
    for (Color c : {WHITE, BLACK}) {
      const char* name = c == WHITE ? "White" : "Black";
      int kings = pos.count(make_piece(c, KING));
      if (kings != 1) return std::string(name) + (kings ? " has more than one king" : " has no king");
      if (pos.count(make_piece(c, PAWN)) > 8) return std::string(name) + " has more than 8 pawns";
      if (popcount(pos.pieces(c)) > 16) return std::string(name) + " has more than 16 pieces";
    }
    if (Bitboard b = pos.pieces(PAWN) & (kRank1BB | kRank8BB))
      return "pawn on the first or last rank (" + square_name(lsb(b)) + ")";
    return std::nullopt;
  }

  static std::optional<std::string> castling(std::string_view text, Position& pos) {
    if (text == "-") return std::nullopt;
    for (char c : text) {
      Color color = std::isupper(static_cast<unsigned char>(c)) ? WHITE : BLACK;
      char token = char(std::toupper(static_cast<unsigned char>(c)));
      const char* name = color == WHITE ? "White" : "Black";
      Square ksq = pos.king_square(color);
      Rank back = relative_rank(color, RANK_1);
      if (rank_of(ksq) != back)
        return std::string("castling right '") + c + "' but " + name + "'s king is not on its first rank";
      Piece rook = make_piece(color, ROOK);
      Square rsq = SQ_NONE;
      if (token == 'K') {
        for (int f = FILE_H; f > file_of(ksq) && rsq == SQ_NONE; --f)
          if (pos.piece_on(make_square(File(f), back)) == rook) rsq = make_square(File(f), back);
      } else if (token == 'Q') {
        for (int f = FILE_A; f < file_of(ksq) && rsq == SQ_NONE; ++f)
          if (pos.piece_on(make_square(File(f), back)) == rook) rsq = make_square(File(f), back);
      } else if (token >= 'A' && token <= 'H') {
        Square s = make_square(File(token - 'A'), back);
        if (pos.piece_on(s) == rook && s != ksq) rsq = s;
        pos.chess960_ = true;
      } else {
        return "unknown castling letter " + quote(std::string_view(&c, 1));
      }
      if (rsq == SQ_NONE)
        return std::string("castling right '") + c + "' but " + name + " has no rook for it";
      CastlingRights cr = castling_right(color, rsq > ksq);
      if (pos.st_->castling_rights & cr) return std::string("castling right '") + c + "' given twice";
      if (file_of(ksq) != FILE_E || (file_of(rsq) != FILE_A && file_of(rsq) != FILE_H)) pos.chess960_ = true;
      pos.add_castling_right(color, rsq);
    }
    return std::nullopt;
  }

  static std::optional<std::string> en_passant(std::string_view text, Position& pos) {
    if (text == "-") return std::nullopt;
    if (text.size() != 2 || text[0] < 'a' || text[0] > 'h' || text[1] < '1' || text[1] > '8')
      return "en passant field " + quote(text) + " is not a square";
    Color us = pos.side_to_move_, them = ~us;
    Square ep = make_square(File(text[0] - 'a'), Rank(text[1] - '1'));
    Square pushed = ep - pawn_push(us), origin = ep + pawn_push(us);
    if (relative_rank(us, ep) != RANK_6 || pos.piece_on(pushed) != make_piece(them, PAWN) || !pos.empty(ep) ||
        !pos.empty(origin))
      return "en passant square " + std::string(text) + " is impossible: no pawn can just have passed it";
    // Keep it only if a capture there is possible, as do_move does, so keys agree.
    if (pawn_attacks(them, ep) & pos.pieces(us, PAWN)) pos.st_->ep_square = ep;
    return std::nullopt;
  }
};

std::optional<std::string> Position::set(std::string_view fen, StateInfo& si, bool chess960) {
  Position candidate;
  StateInfo candidate_state;
  if (auto err = FenParser::parse(fen, candidate, candidate_state, chess960)) return err;
  *this = candidate;
  si = candidate_state;
  st_ = &si;
  return std::nullopt;
}

std::string Position::fen() const {
  std::ostringstream out;
  for (int r = 7; r >= 0; --r) {
    int empty_run = 0;
    for (int f = 0; f < 8; ++f) {
      Piece p = board_[make_square(File(f), Rank(r))];
      if (!p) {
        ++empty_run;
        continue;
      }
      if (empty_run) out << empty_run;
      empty_run = 0;
      out << kPieceLetters[p];
    }
    if (empty_run) out << empty_run;
    if (r) out << '/';
  }
  out << (side_to_move_ == WHITE ? " w " : " b ");
  std::string rights;
  for (CastlingRights cr : {WHITE_OO, WHITE_OOO, BLACK_OO, BLACK_OOO}) {
    if (!can_castle(cr)) continue;
    bool white = cr & (WHITE_OO | WHITE_OOO);
    char letter = chess960_                      ? char('a' + file_of(castling_rook_square_[cr]))
                  : (cr & (WHITE_OO | BLACK_OO)) ? 'k'
                                                 : 'q';
    rights += white ? char(std::toupper(letter)) : letter;
  }
  out << (rights.empty() ? "-" : rights) << ' ';
  out << (st_->ep_square == SQ_NONE ? "-" : square_name(st_->ep_square)) << ' ';
  out << int(st_->rule50) << ' ' << 1 + (game_ply_ - (side_to_move_ == BLACK)) / 2;
  return out.str();
}

std::string Position::flipped_fen() const {
  std::string f = fen();
  std::vector<std::string_view> fields = split_fields(f);
  std::string placement(fields[0]), ranks[8];
  std::istringstream rows(placement);
  for (int i = 0; i < 8; ++i) std::getline(rows, ranks[i], '/');
  std::string out;
  for (int i = 7; i >= 0; --i) out += ranks[i] + (i ? "/" : "");
  auto swap_case = [](std::string s) {
    for (char& c : s)
      c = std::isupper(static_cast<unsigned char>(c)) ? char(std::tolower(c)) : char(std::toupper(c));
    return s;
  };
  out = swap_case(out);
  out += fields[1] == "w" ? " b " : " w ";
  std::string rights(fields[2]);
  if (rights != "-") {
    std::string white, black;  // after swapping case, keep White's letters first
    for (char c : swap_case(rights)) (std::isupper(static_cast<unsigned char>(c)) ? white : black) += c;
    rights = white + black;
  }
  out += rights + ' ';
  std::string ep(fields[3]);
  if (ep != "-") ep[1] = char('1' + '8' - ep[1]);
  out += ep + ' ' + std::string(fields[4]) + ' ' + std::string(fields[5]);
  return out;
}

}  // namespace vblitz::core
