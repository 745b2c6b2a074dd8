// Legal move generation. Every generator emits only legal moves, split the way the search
// consumes them: noisy moves (captures and all promotions), quiet moves, check evasions.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "core/position.h"

namespace vblitz::core {

enum GenType {
  NOISY,     // captures (en passant included) and promotions, capturing or not
  QUIET,     // everything else: non-capturing non-promotions and castling
  EVASIONS,  // all legal moves of a position in check
  LEGAL      // all legal moves
};

constexpr int kMaxMoves = 256;
// Room past the last move that a vector serializer may overwrite (its widest vector).
constexpr int kMoveListSlack = 128;

// A move serializer: writes move = to * to_factor + base for every square in `targets`,
// ascending, to `out` and returns the count (the contract of simd::serialize); null selects
// core's own pop-lsb loop.
using MoveSerializer = size_t (*)(uint64_t targets, uint16_t to_factor, uint16_t base, uint16_t* out);
// A piece-move counter: the number of moves of the knights in `knights` and the sliders in
// `orthogonal` (rooks, queens) and `diagonal` (bishops, queens) to squares of `target`, with
// `occupied` blocking the sliders; the pieces must not be pinned. Null selects count_piece_moves.
using PieceMoveCounter = int (*)(Bitboard orthogonal, Bitboard diagonal, Bitboard knights, Bitboard occupied,
                                 Bitboard target);
// A child counter (core/perft.h): writes the number of legal moves of each child of a padded
// batch to counts[i]. Null keeps perft on do_move and count_legal for every child.
struct ChildBatch;
using ChildCounter = void (*)(const ChildBatch& batch, uint64_t* counts);

// The kernels the generator and perft call, chosen by the SIMD layer (simd/dispatch.h). Each
// thread runs with one set: the process's, unless a MoveKernelScope installed another (an
// engine's, for its search threads), so engines in one process need not share a choice.
struct MoveKernels {
  MoveSerializer serialize = nullptr;
  PieceMoveCounter count = nullptr;
  ChildCounter child = nullptr;
};

namespace detail {
extern MoveKernels process_move_kernels;
inline constinit thread_local const MoveKernels* thread_move_kernels = &process_move_kernels;
}  // namespace detail

// The calling thread's set.
inline const MoveKernels& move_kernels() { return *detail::thread_move_kernels; }

// Installs `kernels` for the calling thread until the scope ends; `kernels` must outlive it.
class MoveKernelScope {
 public:
  explicit MoveKernelScope(const MoveKernels& kernels) : saved_(detail::thread_move_kernels) {
    detail::thread_move_kernels = &kernels;
  }
  ~MoveKernelScope() { detail::thread_move_kernels = saved_; }
  MoveKernelScope(const MoveKernelScope&) = delete;
  MoveKernelScope& operator=(const MoveKernelScope&) = delete;

 private:
  const MoveKernels* saved_;
};

// Set one kernel of the process's set (threads without a scope use it); only while no search
// or perft runs.
void set_move_serializer(MoveSerializer serializer);
void set_piece_move_counter(PieceMoveCounter counter);
// The plain counter: each piece's attack set from the lookup tables, masked and counted.
int count_piece_moves(Bitboard orthogonal, Bitboard diagonal, Bitboard knights, Bitboard occupied,
                      Bitboard target);

// The moves of Us's pawns in `pawns` (none of them pinned off its line: mask `captures` and
// `pushes` with the pin line for a pinned one), counted set-wise: single and double pushes to
// `pushes`, captures to `captures`, a promotion four times. `occupied` blocks the pushes.
template <Color Us>
int count_pawn_moves(Bitboard pawns, Bitboard occupied, Bitboard captures, Bitboard pushes) {
  constexpr Direction Up = pawn_push(Us);
  constexpr Direction UpRight = Us == WHITE ? NORTH_EAST : SOUTH_WEST;
  constexpr Direction UpLeft = Us == WHITE ? NORTH_WEST : SOUTH_EAST;
  constexpr Bitboard Rank7 = Us == WHITE ? rank_bb(RANK_7) : rank_bb(RANK_2);
  constexpr Bitboard Rank3 = Us == WHITE ? rank_bb(RANK_3) : rank_bb(RANK_6);
  const Bitboard promoting = pawns & Rank7, others = pawns & ~Rank7;
  const Bitboard single = shift<Up>(others) & ~occupied;
  return 4 * (popcount(shift<Up>(promoting) & pushes) + popcount(shift<UpRight>(promoting) & captures) +
              popcount(shift<UpLeft>(promoting) & captures)) +
         popcount(shift<UpRight>(others) & captures) + popcount(shift<UpLeft>(others) & captures) +
         popcount(single & pushes) + popcount(shift<Up>(single & Rank3) & pushes);
}

// The number of legal moves of pos, equal to MoveList<LEGAL>(pos).size(), counted set-wise
// without writing the moves (perft's last ply).
int count_legal(const Position& pos);

// Writes the legal moves of kind T to `list` and returns one past the last; `list` needs room
// for kMaxMoves + kMoveListSlack moves. EVASIONS requires
// the side to move to be in check; NOISY and QUIET are legal in check as well.
template <GenType T>
Move* generate(const Position& pos, Move* list);

// The legal moves of a position as a fixed-capacity list.
template <GenType T>
class MoveList {
 public:
  explicit MoveList(const Position& pos) : last_(generate<T>(pos, moves_)) {}
  const Move* begin() const { return moves_; }
  const Move* end() const { return last_; }
  size_t size() const { return size_t(last_ - moves_); }
  bool contains(Move m) const { return std::find(begin(), end(), m) != end(); }

 private:
  Move moves_[kMaxMoves + kMoveListSlack];
  Move* last_;
};

}  // namespace vblitz::core
