// The children of one node for counting their legal moves in one batch, one child per lane (the
// Cray way: vectorize across positions): the parent's board and the moves, no do_move. Every
// board is seen from the children's mover: Black's boards are mirrored top to bottom, so that
// mover always plays up the board from rank 1 and the parent's mover down from rank 8.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/movegen.h"
#include "core/position.h"

namespace vblitz::core {

// Lane padding: a batch is always readable up to the next multiple of kChildLanePad moves (null
// moves there), so a kernel of up to kChildLanePad lanes needs no partial loads.
constexpr size_t kChildLanePad = 8;
constexpr size_t kChildCapacity = kMaxMoves;  // a multiple of kChildLanePad

// A board as the side to move sees it (`us` plays up the board). Standard chess only: a castling
// rook (a1 for O-O-O, h1 for O-O) means the king on e1.
struct ChildBoard {
  Bitboard us, them, pawns, knights;
  Bitboard diagonal;    // bishops and queens
  Bitboard orthogonal;  // rooks and queens
  Bitboard kings;
  Bitboard castling;  // `us`'s rooks that carry a castling right
};

// The children of one node: the parent's board as the children's mover sees it (`us` are that
// mover's pieces, `castling` its castling rooks) and one legal move per child, none of which
// gives the child an en passant square.
struct ChildBatch {
  ChildBoard parent;
  uint16_t mirror;  // XORed into a move, gives its squares as seen: 0, or 56 on both squares
  alignas(64) uint64_t moves[kChildCapacity];  // raw 16-bit moves, one per lane
  size_t size = 0;
};

// True when pos's children can be batched: standard chess, castling rights only for kings on
// e1/e8 and rooks in the corners.
bool batchable(const Position& pos);
// Empties `batch` and sets its parent board from pos (which must be batchable).
void start_batch(const Position& pos, ChildBatch& batch);
// True when legal move m of pos gives the child an en passant square (as do_move sets it): such
// a child is counted by the scalar path, not in a batch.
bool gives_en_passant_square(const Position& pos, Move m);
inline void add_child(ChildBatch& batch, Move m) { batch.moves[batch.size++] = m.raw(); }
// Fills the lanes after the last child up to the next multiple of kChildLanePad with null moves.
void pad(ChildBatch& batch);

// Child i of the batch made with scalar code: the parent's sets changed by move i (the piece
// moved or promoted, a capture, en passant or castling) and the castling right of a captured
// rook dropped. The kernels make the same boards in lanes.
inline ChildBoard child_board(const ChildBatch& batch, size_t i) {
  const unsigned move = unsigned(batch.moves[i] ^ batch.mirror);
  const Bitboard from = Bitboard(1) << (move >> 6 & 63), to = Bitboard(1) << (move & 63);
  const unsigned kind = move >> 14;  // 1 promotion, 2 en passant, 3 castling
  const ChildBoard& p = batch.parent;
  const Bitboard cleared = kind == 2 ? to << 8 : to;  // the captured piece's square
  ChildBoard c{p.us & ~cleared,
               p.them ^ (from | to),
               p.pawns & ~cleared,
               p.knights & ~cleared,
               p.diagonal & ~cleared,
               p.orthogonal & ~cleared,
               p.kings,
               p.castling & ~to};
  const unsigned promoted = move >> 12 & 3;  // knight, bishop, rook, queen
  const bool promotion = kind == 1;
  c.pawns ^= (p.pawns & from) | (!promotion && (p.pawns & from) ? to : 0);
  c.knights ^= (p.knights & from) | ((promotion ? promoted == 0 : bool(p.knights & from)) ? to : 0);
  c.diagonal ^= (p.diagonal & from) | ((promotion ? promoted & 1 : bool(p.diagonal & from)) ? to : 0);
  c.orthogonal ^= (p.orthogonal & from) | ((promotion ? promoted >> 1 : bool(p.orthogonal & from)) ? to : 0);
  c.kings ^= (p.kings & from) | (p.kings & from ? to : 0);
  if (kind == 3) {  // "king takes own rook" on the top rank: king and rook to their squares
    const bool king_side = to & kFileHBB;  // the rook's corner
    const Bitboard king_to = square_bb(king_side ? SQ_G8 : SQ_C8),
                   rook_to = square_bb(king_side ? SQ_F8 : SQ_D8);
    c.kings ^= to ^ king_to;
    c.orthogonal |= rook_to;
    c.them |= king_to | rook_to;
  }
  return c;
}

}  // namespace vblitz::core
