// Move ordering: the hash move, captures that win material (MVV-LVA, SEE), killers (Cray
// Blitz kept up to ten per ply), the counter move, quiet moves by history, losing captures.
#pragma once

#include <cstdint>

#include "core/movegen.h"
#include "simd/killer_match.h"

namespace vblitz::search {

constexpr int kMaxKillers = 10;

// Per-thread ordering statistics.
struct History {
  int16_t quiet[core::COLOR_NB][64][64] = {};   // [side][from][to]
  core::Move counter[core::PIECE_NB][64] = {};  // reply to [piece][to] of the last move
  void update(core::Color side, core::Move m, int bonus);
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
             core::Move counter, const History& history, bool noisy_only);
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
