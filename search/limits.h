// What a `go` command asks for.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <utility>
#include <vector>

#include "core/types.h"

namespace vblitz::search {

struct Limits {
  int64_t time[2] = {-1, -1};  // wtime, btime in ms (-1: not given)
  int64_t increment[2] = {0, 0};
  int moves_to_go = 0;
  int64_t move_time = 0;  // ms, 0: not given
  int depth = 0;          // 0: no limit
  uint64_t nodes = 0;     // 0: no limit
  int mate = 0;           // find a mate in this many moves, 0: not asked
  // When the command arrived: the clock counts from here, so the time before the search
  // starts (a thread waking on a busy machine) is spent from the budget. {}: the search's start.
  std::chrono::steady_clock::time_point start{};
  bool infinite = false;
  bool ponder = false;  // search without the clock until *ponderhit turns true
  // Set by the caller when the opponent plays the expected move. The caller owns it and clears
  // it before starting the search, so a ponderhit that arrives at once is never lost.
  const std::atomic<bool>* ponderhit = nullptr;
  std::vector<core::Move> search_moves;  // restrict the root to these (empty: all)
  // Extended-book bonuses (centipawns): the root window of each listed move is offset by its
  // bonus, so the move is preferred unless it searches that much worse (Deep Blue).
  std::vector<std::pair<core::Move, int>> root_bonus;

  bool uses_clock() const { return time[0] >= 0 || time[1] >= 0; }
};

}  // namespace vblitz::search
