// Packing and unpacking of the 32-byte training record.
#include "data/packed_position.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace vblitz::data {

namespace {

constexpr char kPieceLetters[] = " PNBRQK  pnbrqk";

void put16(uint8_t* at, uint16_t v) {
  at[0] = uint8_t(v);
  at[1] = uint8_t(v >> 8);
}

}  // namespace

PackedPosition PackedPosition::pack(const core::Position& pos, int white_score, GameResult result) {
  PackedPosition p;
  const uint64_t occupied = pos.pieces();
  for (int i = 0; i < 8; ++i) p.bytes[size_t(i)] = uint8_t(occupied >> (8 * i));
  int i = 0;
  for (uint64_t b = occupied; b; b &= b - 1, ++i)
    p.bytes[8 + size_t(i / 2)] |= uint8_t(pos.piece_on(core::lsb(b)) << (4 * (i & 1)));
  put16(&p.bytes[24], uint16_t(int16_t(std::clamp(white_score, -32767, 32767))));
  put16(&p.bytes[26], uint16_t(std::min(pos.game_ply(), 65535)));
  p.bytes[28] = uint8_t(result);
  p.bytes[29] = uint8_t(pos.side_to_move() | (pos.castling_rights() << 1));
  p.bytes[30] = uint8_t(pos.ep_square() == core::SQ_NONE ? 64 : pos.ep_square());
  p.bytes[31] = uint8_t(std::min(pos.rule50_count(), 255));
  return p;
}

uint64_t PackedPosition::occupied() const {
  uint64_t b = 0;
  for (int i = 0; i < 8; ++i) b |= uint64_t(bytes[size_t(i)]) << (8 * i);
  return b;
}

std::string PackedPosition::fen() const {
  char board[64];
  std::fill(board, board + 64, ' ');
  int i = 0;
  for (uint64_t b = occupied(); b; b &= b - 1, ++i) board[core::lsb(b)] = kPieceLetters[piece(i) & 15];
  std::string fen;
  for (int rank = 7; rank >= 0; --rank) {
    int empty = 0;
    for (int file = 0; file < 8; ++file) {
      const char c = board[rank * 8 + file];
      if (c == ' ') {
        ++empty;
        continue;
      }
      if (empty) fen += char('0' + empty);
      empty = 0;
      fen += c;
    }
    if (empty) fen += char('0' + empty);
    if (rank) fen += '/';
  }
  fen += side_to_move() == core::WHITE ? " w " : " b ";
  const uint8_t cr = castling_rights();
  std::string castling;
  if (cr & core::WHITE_OO) castling += 'K';
  if (cr & core::WHITE_OOO) castling += 'Q';
  if (cr & core::BLACK_OO) castling += 'k';
  if (cr & core::BLACK_OOO) castling += 'q';
  fen += castling.empty() ? "-" : castling;
  const int ep = ep_square();
  fen += ep < 64 ? std::string(" ") + char('a' + ep % 8) + char('1' + ep / 8) : std::string(" -");
  fen += ' ' + std::to_string(rule50()) + ' ' + std::to_string(1 + ply() / 2);
  return fen;
}

std::optional<std::string> PackedPosition::check() const {
  const uint64_t occupied_squares = occupied();
  const int count = std::popcount(occupied_squares);
  if (count > 32) return "more than 32 pieces";
  int kings[2] = {0, 0};
  for (int i = 0; i < count; ++i) {
    const core::Piece pc = piece(i);
    const core::PieceType pt = core::type_of(pc);
    if (pt == core::NO_PIECE_TYPE || pt > core::KING) return "bad piece code " + std::to_string(int(pc));
    if (pt == core::KING) ++kings[core::color_of(pc)];
  }
  for (int i = count; i < 32; ++i)
    if (piece(i) != core::NO_PIECE) return "piece code beyond the occupied squares";
  if (kings[0] != 1 || kings[1] != 1) return "not one king each";
  if (bytes[28] > 2) return "bad result";
  if (bytes[29] >> 5) return "bad side-to-move or castling byte";
  if (bytes[30] > 64) return "bad en passant square";
  return std::nullopt;
}

std::optional<std::string> PackedPosition::check_position() const {
  if (auto error = check()) return error;
  // The checks core's FEN reader makes, without building a position: this runs for every
  // record the data commands read.
  const uint64_t occupied_squares = occupied();
  core::Piece board[64];
  std::fill(board, board + 64, core::NO_PIECE);
  int men[2] = {0, 0}, pawns[2] = {0, 0};
  int i = 0;
  for (uint64_t b = occupied_squares; b; b &= b - 1, ++i) {
    const core::Square sq = core::Square(core::lsb(b));
    const core::Piece pc = piece(i);
    board[sq] = pc;
    ++men[core::color_of(pc)];
    if (core::type_of(pc) == core::PAWN) {
      ++pawns[core::color_of(pc)];
      if (core::rank_of(sq) == core::RANK_1 || core::rank_of(sq) == core::RANK_8)
        return "pawn on the first or last rank";
    }
  }
  if (men[0] > 16 || men[1] > 16 || pawns[0] > 8 || pawns[1] > 8)
    return "more than 16 pieces or 8 pawns of one colour";
  const core::Color us = side_to_move(), them = ~us;
  if (const int ep = ep_square(); ep < 64) {
    const int push = us == core::WHITE ? 8 : -8;  // one rank forward for the side to move
    if (core::relative_rank(us, core::Square(ep)) != core::RANK_6 || board[ep] != core::NO_PIECE ||
        board[ep - push] != core::make_piece(them, core::PAWN) || board[ep + push] != core::NO_PIECE)
      return std::string("en passant square ") + char('a' + ep % 8) + char('1' + ep / 8) +
             " is impossible: no pawn can just have passed it";
  }
  const uint8_t rights = castling_rights();
  for (const core::Color c : {core::WHITE, core::BLACK}) {
    const int back = c == core::WHITE ? 0 : 56;
    int king = -1;
    for (int f = 0; f < 8; ++f)
      if (board[back + f] == core::make_piece(c, core::KING)) king = f;
    const core::CastlingRights sides[2] = {c == core::WHITE ? core::WHITE_OO : core::BLACK_OO,
                                           c == core::WHITE ? core::WHITE_OOO : core::BLACK_OOO};
    for (int side = 0; side < 2; ++side) {
      if (!(rights & sides[side])) continue;
      bool rook = false;
      for (int f = side == 0 ? king + 1 : 0; king >= 0 && f < (side == 0 ? 8 : king); ++f)
        rook |= board[back + f] == core::make_piece(c, core::ROOK);
      if (!rook)
        return std::string(c == core::WHITE ? "White" : "Black") + " may castle " +
               (side == 0 ? "short" : "long") + " without a king on its first rank and a rook beside it";
    }
  }
  return std::nullopt;
}

std::string PackedPosition::text_line() const {
  static const char* const kResults[] = {"0-1", "1/2-1/2", "1-0"};
  return fen() + " | " + std::to_string(white_score()) + " | " + kResults[std::min<int>(bytes[28], 2)];
}

uint64_t PackedPosition::position_hash() const {
  // FNV-1a over the board bytes and the side to move; score, result and counters excluded.
  uint64_t h = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < 24; ++i) h = (h ^ bytes[i]) * 0x100000001b3ULL;
  return (h ^ (bytes[29] & 1)) * 0x100000001b3ULL;
}

}  // namespace vblitz::data
