// Move ordering: the staged move picker and the statistics it orders by (killers, counter
// moves, butterfly and continuation history).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/movegen.h"
#include "simd/killer_match.h"

namespace vblitz::search {

constexpr int kMaxKillers = 10;

// Scores of quiet moves by [moved piece][target] after one particular earlier move.
using PieceToHistory = std::array<std::array<int16_t, 64>, core::PIECE_NB>;

// The continuation tables of the moves one and two plies before a node.
using Continuations = std::array<PieceToHistory*, 2>;

// Per-thread ordering statistics.
struct History {
  int16_t quiet[core::COLOR_NB][64][64] = {};   // [side][from][to]
  core::Move counter[core::PIECE_NB][64] = {};  // reply to [piece][to] of the last move
  // One PieceToHistory per earlier move's [piece][target]; NO_PIECE's entries stand for a null
  // move or none. On the heap: per-thread searchers may live on small thread stacks.
  std::vector<PieceToHistory> continuation = std::vector<PieceToHistory>(core::PIECE_NB * 64);

  PieceToHistory* after(core::Piece piece, core::Square to) { return &continuation[size_t(piece * 64 + to)]; }
  // The table that stands for "no move" (a null move, or before the root).
  PieceToHistory* after_no_move() { return after(core::NO_PIECE, core::SQ_A1); }
  // The ordering score of quiet move m by piece of side `us`: butterfly plus continuations.
  int quiet_score(core::Color us, core::Piece piece, core::Move m, const Continuations& cont) const {
    return quiet[us][m.from()][m.to()] + (*cont[0])[piece][m.to()] + (*cont[1])[piece][m.to()];
  }
  // Rewards (bonus > 0) or punishes quiet move m of piece in all three tables.
  void update(core::Color us, core::Piece piece, core::Move m, int bonus, const Continuations& cont);
  void clear() { *this = History(); }
};

// Killers of one ply, newest first, padded for the SIMD list search.
struct Killers {
  uint16_t moves[simd::kKillerListCapacity] = {};
  // Index of m in the first `count` killers, or -1.
  int find(core::Move m, int count) const { return simd::find_move(moves, size_t(count), m.raw()); }
  void add(core::Move m, int count);
};

// Yields the legal moves of a position best first, in stages: the hash move, captures and
// promotions that do not lose material (MVV-LVA, then SEE), killers (Cray Blitz kept up to ten
// per ply), the counter move, quiet moves by history, then the losing captures. With
// `noisy_only` (quiescence) it stops after the winning and even captures, unless the side to
// move is in check: then every evasion is given.
class MovePicker {
 public:
  MovePicker(const core::Position& pos, core::Move tt_move, const Killers* killers, int killer_count,
             core::Move counter, const History& history, const Continuations& cont, bool noisy_only);
  // The next move, or Move::none() when none are left.
  core::Move next();
  // True if the move just returned was ordered as a losing capture.
  bool last_was_bad_capture() const { return last_bad_capture_; }

 private:
  enum class Stage {
    HASH,
    GENERATE_NOISY,
    GOOD_NOISY,
    KILLERS,
    COUNTER,
    GENERATE_QUIETS,
    QUIETS,
    BAD_NOISY,
    DONE
  };

  void score_noisy();
  void score_and_sort_quiets(size_t begin);
  // True for the moves handed out before the quiet stage: hash move, killers, counter move.
  bool is_refutation(core::Move m) const;

  // Noisy moves fill [0, noisy_end_) (losing ones are moved to [0, bad_end_)); quiet moves follow.
  core::Move moves_[core::kMaxMoves + core::kMoveListSlack];
  int32_t scores_[core::kMaxMoves];
  size_t current_ = 0, end_ = 0, noisy_end_ = 0, bad_end_ = 0;
  int killer_index_ = 0;
  Stage stage_ = Stage::HASH;
  bool last_bad_capture_ = false;
  const core::Position& pos_;
  const History& history_;
  const Continuations cont_;
  const Killers* killers_;
  const int killer_count_;
  core::Move tt_move_, counter_;
  const bool noisy_only_;
};

}  // namespace vblitz::search
