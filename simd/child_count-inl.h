// Highway kernel counting the legal moves of child positions, one child per lane (compiled once
// per SIMD target).
#if defined(VBLITZ_SIMD_CHILD_COUNT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef VBLITZ_SIMD_CHILD_COUNT_INL_H_
#undef VBLITZ_SIMD_CHILD_COUNT_INL_H_
#else
#define VBLITZ_SIMD_CHILD_COUNT_INL_H_
#endif

#include <hwy/highway.h>

#include "core/child_boards.h"

HWY_BEFORE_NAMESPACE();
namespace vblitz::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

namespace child_count {

// Square-index deltas of the directions (north is up the board, east towards the h-file).
constexpr int kNorth = 8, kSouth = -8, kEast = 1, kWest = -1;
constexpr int kNorthEast = 9, kNorthWest = 7, kSouthEast = -7, kSouthWest = -9;

constexpr uint64_t kFileA = 0x0101010101010101ULL, kFileH = kFileA << 7;
constexpr uint64_t kRank1 = 0xFFULL, kRank3 = kRank1 << 16, kRank8 = kRank1 << 56;
constexpr uint64_t kA1 = 1ULL << 0, kB1 = 1ULL << 1, kC1 = 1ULL << 2, kD1 = 1ULL << 3, kE1 = 1ULL << 4;
constexpr uint64_t kF1 = 1ULL << 5, kG1 = 1ULL << 6, kH1 = 1ULL << 7;

// The squares a step of `delta` may land on without wrapping around the board's side: the
// files it moves across (-2 .. 2) decide which edge files are unreachable.
constexpr uint64_t Landing(int delta) {
  const int files = (delta + 64 + 3) % 8 - 3;
  return files == 1    ? ~kFileA
         : files == 2  ? ~(kFileA | kFileA << 1)
         : files == -1 ? ~kFileH
         : files == -2 ? ~(kFileH | kFileH >> 1)
                       : ~0ULL;
}

// Every bit moved by `delta` squares, the same in every lane (no landing mask).
template <int kDelta, class V>
HWY_INLINE V Shift(V v) {
  if constexpr (kDelta > 0)
    return hn::ShiftLeft<kDelta>(v);
  else
    return hn::ShiftRight<-kDelta>(v);
}

// One step of `delta` from every square of v, dropping what would wrap around the board.
template <int kDelta, class V>
HWY_INLINE V Step(V v) {
  const hn::DFromV<V> d;
  return hn::And(Shift<kDelta>(v), hn::Set(d, Landing(kDelta)));
}

// The squares the pieces of `from` reach in direction `dir` through `empty` squares: each ray up
// to and including the first piece (occluded Kogge-Stone fill).
template <int kDir, class V>
HWY_INLINE V Fill(V from, V empty) {
  const hn::DFromV<V> d;
  const V landing = hn::Set(d, Landing(kDir));
  V open = hn::And(empty, landing);
  V g = hn::OrAnd(from, open, Shift<kDir>(from));
  open = hn::And(open, Shift<kDir>(open));
  g = hn::OrAnd(g, open, Shift<2 * kDir>(g));
  open = hn::And(open, Shift<2 * kDir>(open));
  g = hn::OrAnd(g, open, Shift<4 * kDir>(g));
  return hn::And(Shift<kDir>(g), landing);
}

template <class V>
HWY_INLINE V KnightAttacks(V knights) {
  return hn::Or(
      hn::Or(hn::Or(Step<17>(knights), Step<15>(knights)), hn::Or(Step<10>(knights), Step<6>(knights))),
      hn::Or(hn::Or(Step<-17>(knights), Step<-15>(knights)), hn::Or(Step<-10>(knights), Step<-6>(knights))));
}

template <class V>
HWY_INLINE V KingAttacks(V king) {
  const V row = hn::Or(king, hn::Or(Step<kEast>(king), Step<kWest>(king)));
  return hn::AndNot(king, hn::Or(row, hn::Or(Shift<kNorth>(row), Shift<kSouth>(row))));
}

// Sum of the moves of every knight of `knights` to `target`: jump by jump (jumps of different
// knights may land on one square, so each jump is counted on its own).
template <class V>
HWY_INLINE V KnightMoveCount(V knights, V target) {
  V n = hn::PopulationCount(hn::And(Step<17>(knights), target));
  n = hn::Add(n, hn::PopulationCount(hn::And(Step<15>(knights), target)));
  n = hn::Add(n, hn::PopulationCount(hn::And(Step<10>(knights), target)));
  n = hn::Add(n, hn::PopulationCount(hn::And(Step<6>(knights), target)));
  n = hn::Add(n, hn::PopulationCount(hn::And(Step<-6>(knights), target)));
  n = hn::Add(n, hn::PopulationCount(hn::And(Step<-10>(knights), target)));
  n = hn::Add(n, hn::PopulationCount(hn::And(Step<-15>(knights), target)));
  return hn::Add(n, hn::PopulationCount(hn::And(Step<-17>(knights), target)));
}

// Scans the ray from our king in direction kDir through our own pieces to the first enemy piece.
// If that piece is a slider moving along the ray, it checks when none of ours stands between
// (adding itself to `checkers` and the ray, the squares that block or capture, to `answers`),
// and pins ours when exactly one stands between; returns that pinned piece (or nothing).
template <int kDir, class V>
HWY_INLINE V ScanKingRay(V king, V us, V them, V their_sliders, V& checkers, V& answers) {
  const hn::DFromV<V> d;
  const V zero = hn::Zero(d);
  const V ray = Fill<kDir>(king, hn::Not(them));
  const V slider = hn::And(ray, their_sliders), own = hn::And(ray, us);
  const auto found = hn::Ne(slider, zero);
  const auto check = hn::And(found, hn::Eq(own, zero));
  checkers = hn::Or(checkers, hn::IfThenElseZero(check, slider));
  answers = hn::Or(answers, hn::IfThenElseZero(check, ray));
  const auto one_own = hn::Eq(hn::And(own, hn::Sub(own, hn::Set(d, 1))), zero);
  return hn::IfThenElseZero(hn::And(found, one_own), own);
}

// A lane set after the move: `set` without the captured piece's square, without `from` if the
// moved piece belongs to the set, with `to` if the piece placed there does (`placed`).
template <class V, class M>
HWY_INLINE V AfterMove(V set, V from, V to, V cleared, M placed) {
  return hn::Xor(hn::AndNot(cleared, set), hn::Or(hn::And(set, from), hn::IfThenElseZero(placed, to)));
}

// The legal moves of one child per lane, its board given as the mover sees it (playing up).
template <class D>
HWY_INLINE hn::Vec<D> CountChild(D d, hn::Vec<D> us, hn::Vec<D> them, hn::Vec<D> pawns, hn::Vec<D> knights,
                                 hn::Vec<D> diagonal, hn::Vec<D> orthogonal, hn::Vec<D> kings,
                                 hn::Vec<D> castling) {
  using V = hn::Vec<D>;
  const V zero = hn::Zero(d);
  const V occupied = hn::Or(us, them), empty = hn::Not(occupied);
  const V king = hn::And(kings, us);
  const V their_pawns = hn::And(pawns, them), their_knights = hn::And(knights, them);
  const V their_diagonal = hn::And(diagonal, them), their_orthogonal = hn::And(orthogonal, them);

  // 1. The enemy's attacks, with our king lifted (it cannot shelter behind its own square).
  const V through = hn::Not(hn::Xor(occupied, king));
  V attacked = hn::Or(Step<kSouthEast>(their_pawns), Step<kSouthWest>(their_pawns));
  attacked = hn::Or(attacked, KnightAttacks(their_knights));
  attacked = hn::Or(attacked, KingAttacks(hn::And(kings, them)));
  attacked =
      hn::Or(attacked,
             hn::Or(hn::Or(Fill<kNorth>(their_orthogonal, through), Fill<kSouth>(their_orthogonal, through)),
                    hn::Or(Fill<kEast>(their_orthogonal, through), Fill<kWest>(their_orthogonal, through))));
  attacked = hn::Or(
      attacked,
      hn::Or(hn::Or(Fill<kNorthEast>(their_diagonal, through), Fill<kNorthWest>(their_diagonal, through)),
             hn::Or(Fill<kSouthEast>(their_diagonal, through), Fill<kSouthWest>(their_diagonal, through))));

  // 2. Checkers, the squares that answer a single check (capture or block), and pins by axis: a
  //    pinned piece moves only along the axis it is pinned on.
  V checkers = hn::Or(hn::And(KnightAttacks(king), their_knights),
                      hn::And(hn::Or(Step<kNorthEast>(king), Step<kNorthWest>(king)), their_pawns));
  V answers = checkers;
  const V pinned_file = hn::Or(ScanKingRay<kNorth>(king, us, them, their_orthogonal, checkers, answers),
                               ScanKingRay<kSouth>(king, us, them, their_orthogonal, checkers, answers));
  const V pinned_rank = hn::Or(ScanKingRay<kEast>(king, us, them, their_orthogonal, checkers, answers),
                               ScanKingRay<kWest>(king, us, them, their_orthogonal, checkers, answers));
  const V pinned_diagonal =
      hn::Or(ScanKingRay<kNorthEast>(king, us, them, their_diagonal, checkers, answers),
             ScanKingRay<kSouthWest>(king, us, them, their_diagonal, checkers, answers));
  const V pinned_anti = hn::Or(ScanKingRay<kNorthWest>(king, us, them, their_diagonal, checkers, answers),
                               ScanKingRay<kSouthEast>(king, us, them, their_diagonal, checkers, answers));
  const auto no_check = hn::Eq(checkers, zero);
  const auto single_check = hn::Eq(hn::And(checkers, hn::Sub(checkers, hn::Set(d, 1))), zero);
  const V check_mask = hn::IfThenElse(no_check, hn::Set(d, ~0ULL), hn::IfThenElseZero(single_check, answers));

  const V pinned = hn::Or(hn::Or(pinned_file, pinned_rank), hn::Or(pinned_diagonal, pinned_anti));
  const V unpinned = hn::Not(pinned);

  const V target = hn::AndNot(us, check_mask);
  const V captures = hn::And(them, check_mask), pushes = hn::And(empty, check_mask);
  const V rank8 = hn::Set(d, kRank8);

  // 3. Pawns: pushes, double pushes and captures; a promotion counts four moves.
  const V our_pawns = hn::And(pawns, us);
  const V single = hn::And(Shift<kNorth>(hn::And(our_pawns, hn::Or(unpinned, pinned_file))), empty);
  const V single_moves = hn::And(single, pushes);
  const V double_moves = hn::And(Shift<kNorth>(hn::And(single, hn::Set(d, kRank3))), pushes);
  const V east = hn::And(Step<kNorthEast>(hn::And(our_pawns, hn::Or(unpinned, pinned_diagonal))), captures);
  const V west = hn::And(Step<kNorthWest>(hn::And(our_pawns, hn::Or(unpinned, pinned_anti))), captures);
  V count = hn::Add(hn::Add(hn::PopulationCount(single_moves), hn::PopulationCount(double_moves)),
                    hn::Add(hn::PopulationCount(east), hn::PopulationCount(west)));
  // Pushes and captures land on different squares; the two capture directions may share one.
  const V promotions = hn::Add(hn::PopulationCount(hn::And(hn::Or(single_moves, east), rank8)),
                               hn::PopulationCount(hn::And(west, rank8)));
  count = hn::Add(count, hn::Add(promotions, hn::Add(promotions, promotions)));

  // 4. Knights (a pinned knight never moves) and sliders, direction by direction.
  count = hn::Add(count, KnightMoveCount(hn::AndNot(pinned, hn::And(knights, us)), target));
  const V our_orthogonal = hn::And(orthogonal, us), our_diagonal = hn::And(diagonal, us);
  const V file_movers = hn::And(our_orthogonal, hn::Or(unpinned, pinned_file));
  const V rank_movers = hn::And(our_orthogonal, hn::Or(unpinned, pinned_rank));
  const V diagonal_movers = hn::And(our_diagonal, hn::Or(unpinned, pinned_diagonal));
  const V anti_movers = hn::And(our_diagonal, hn::Or(unpinned, pinned_anti));
  count = hn::Add(count, hn::PopulationCount(hn::And(Fill<kNorth>(file_movers, empty), target)));
  count = hn::Add(count, hn::PopulationCount(hn::And(Fill<kSouth>(file_movers, empty), target)));
  count = hn::Add(count, hn::PopulationCount(hn::And(Fill<kEast>(rank_movers, empty), target)));
  count = hn::Add(count, hn::PopulationCount(hn::And(Fill<kWest>(rank_movers, empty), target)));
  count = hn::Add(count, hn::PopulationCount(hn::And(Fill<kNorthEast>(diagonal_movers, empty), target)));
  count = hn::Add(count, hn::PopulationCount(hn::And(Fill<kSouthWest>(diagonal_movers, empty), target)));
  count = hn::Add(count, hn::PopulationCount(hn::And(Fill<kNorthWest>(anti_movers, empty), target)));
  count = hn::Add(count, hn::PopulationCount(hn::And(Fill<kSouthEast>(anti_movers, empty), target)));

  // 5. The king to squares the enemy does not attack, and castling (not in check, the path
  //    empty, the king's squares unattacked).
  count = hn::Add(count, hn::PopulationCount(hn::AndNot(hn::Or(us, attacked), KingAttacks(king))));
  const auto short_castle = hn::And(
      hn::Ne(hn::And(castling, hn::Set(d, kH1)), zero),
      hn::Eq(hn::Or(hn::And(occupied, hn::Set(d, kF1 | kG1)), hn::And(attacked, hn::Set(d, kE1 | kF1 | kG1))),
             zero));
  const auto long_castle = hn::And(hn::Ne(hn::And(castling, hn::Set(d, kA1)), zero),
                                   hn::Eq(hn::Or(hn::And(occupied, hn::Set(d, kB1 | kC1 | kD1)),
                                                 hn::And(attacked, hn::Set(d, kC1 | kD1 | kE1))),
                                          zero));
  const V one = hn::Set(d, 1);
  return hn::Add(count, hn::Add(hn::IfThenElseZero(short_castle, one), hn::IfThenElseZero(long_castle, one)));
}

}  // namespace child_count

// The children in lanes i .. i+N-1 of the batch, each made from the parent's sets and its move as
// core::child_board makes it, and counted.
template <class D>
HWY_INLINE hn::Vec<D> CountChunk(D d, const core::ChildBatch& batch, size_t i) {
  using V = hn::Vec<D>;
  using child_count::AfterMove;
  const V zero = hn::Zero(d), one = hn::Set(d, 1), squares = hn::Set(d, 63);
  const V move = hn::Xor(hn::Load(d, batch.moves + i), hn::Set(d, batch.mirror));
  const V from = hn::Shl(one, hn::And(hn::ShiftRight<6>(move), squares));
  const V to = hn::Shl(one, hn::And(move, squares));
  const V kind = hn::ShiftRight<14>(move), promoted = hn::And(hn::ShiftRight<12>(move), hn::Set(d, 3));
  const auto promotion = hn::Eq(kind, one), castles = hn::Eq(kind, hn::Set(d, 3));
  const V cleared = hn::IfThenElse(hn::Eq(kind, hn::Set(d, 2)), hn::ShiftLeft<8>(to), to);  // en passant

  const core::ChildBoard& p = batch.parent;
  const V pawns = hn::Set(d, p.pawns), knights = hn::Set(d, p.knights), kings = hn::Set(d, p.kings);
  const V diagonal = hn::Set(d, p.diagonal), orthogonal = hn::Set(d, p.orthogonal);
  const auto moved_pawn = hn::Ne(hn::And(pawns, from), zero),
             moved_knight = hn::Ne(hn::And(knights, from), zero);
  const auto moved_diagonal = hn::Ne(hn::And(diagonal, from), zero);
  const auto moved_orthogonal = hn::Ne(hn::And(orthogonal, from), zero);
  const auto moved_king = hn::Ne(hn::And(kings, from), zero);
  const auto placed_knight =
      hn::Or(hn::And(promotion, hn::Eq(promoted, zero)), hn::AndNot(promotion, moved_knight));
  const auto placed_diagonal =
      hn::Or(hn::And(promotion, hn::Ne(hn::And(promoted, one), zero)), hn::AndNot(promotion, moved_diagonal));
  const auto placed_orthogonal = hn::Or(hn::And(promotion, hn::Ne(hn::And(promoted, hn::Set(d, 2)), zero)),
                                        hn::AndNot(promotion, moved_orthogonal));

  // Castling ("king takes own rook" on the top rank): king and rook to their squares.
  const auto king_side = hn::Ne(hn::And(to, hn::Set(d, child_count::kFileH)), zero);
  const V king_to =
      hn::IfThenElse(king_side, hn::Set(d, child_count::kG1 << 56), hn::Set(d, child_count::kC1 << 56));
  const V rook_to =
      hn::IfThenElse(king_side, hn::Set(d, child_count::kF1 << 56), hn::Set(d, child_count::kD1 << 56));
  const V castled = hn::IfThenElseZero(castles, hn::Or(king_to, rook_to));

  return child_count::CountChild(d, hn::AndNot(cleared, hn::Set(d, p.us)),
                                 hn::Or(hn::Xor(hn::Set(d, p.them), hn::Or(from, to)), castled),
                                 AfterMove(pawns, from, to, cleared, hn::AndNot(promotion, moved_pawn)),
                                 AfterMove(knights, from, to, cleared, placed_knight),
                                 AfterMove(diagonal, from, to, cleared, placed_diagonal),
                                 hn::Or(AfterMove(orthogonal, from, to, cleared, placed_orthogonal),
                                        hn::IfThenElseZero(castles, rook_to)),
                                 hn::Xor(AfterMove(kings, from, to, zero, moved_king),
                                         hn::IfThenElseZero(castles, hn::Xor(to, king_to))),
                                 hn::AndNot(to, hn::Set(d, p.castling)));
}

inline void CountChildMoves(const core::ChildBatch& batch, uint64_t* HWY_RESTRICT counts) {
  const hn::CappedTag<uint64_t, core::kChildLanePad> d;
  for (size_t i = 0; i < batch.size; i += hn::Lanes(d)) hn::StoreU(CountChunk(d, batch, i), d, counts + i);
}

}  // namespace vblitz::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
