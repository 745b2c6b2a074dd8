// Move ordering: the hash move, captures that win material (MVV-LVA, SEE), killers (Cray
// Blitz kept up to ten per ply), the counter move, quiet moves by history, losing captures.
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

// Yields the legal moves of a position best first. `kind` NOISY gives captures and promotions
// only (quiescence); in check every evasion is given.
class MovePicker {
 public:
  MovePicker(const core::Position& pos, core::Move tt_move, const Killers* killers, int killer_count,
             core::Move counter, const History& history, const Continuations& cont, bool noisy_only);
  // The next move, or Move::none() when none are left.
  core::Move next();
  int count() const { return int(size_); }
  // True if the move just returned was ordered as a losing capture.
  bool last_was_bad_capture() const { return last_score_ < 0 && last_capture_; }

 private:
  core::Move moves_[core::kMaxMoves + core::kMoveListSlack];
  int32_t scores_[core::kMaxMoves];
  size_t size_ = 0, next_ = 0;
  int32_t last_score_ = 0;
  bool last_capture_ = false;
  const core::Position& pos_;
};

}  // namespace vblitz::search
