// Soft and hard time limits from the clock.
#include "search/time_manager.h"

#include <algorithm>

namespace vblitz::search {

void TimeManager::start(const Limits& limits, core::Color us, int64_t overhead_ms) {
  soft_ = hard_ = 0;
  if (limits.infinite || limits.ponder) return;
  if (limits.move_time > 0) {
    soft_ = hard_ = std::max<int64_t>(1, limits.move_time - overhead_ms);
    return;
  }
  if (!limits.uses_clock()) return;
  // A clock given for the other side only stands in for ours: the search stays bounded.
  const core::Color clock = limits.time[us] >= 0 ? us : ~us;
  const int64_t left = std::max<int64_t>(1, limits.time[clock] - overhead_ms);
  const int moves = limits.moves_to_go > 0 ? std::min(limits.moves_to_go, 40) : 30;
  const int64_t inc = limits.increment[clock];
  // The target shares out the clock and the increments of the moves planned for, less the
  // overhead of each of them (and two more): a clock that lives on its increment then settles
  // at several times the overhead instead of just above it, where a little lag loses on time.
  const int64_t budget = limits.time[clock] + inc * (moves - 1) - overhead_ms * (moves + 2);
  soft_ = std::max<int64_t>(1, budget / moves);
  // Never more than a fifth of what is left above a reserve of ten overheads (half of what is
  // left if this is the last move before the time control), and never more than five times the
  // target. The reserve makes an increment game spend less than its increment once the clock
  // is low, so the clock climbs back instead of settling just above lag's reach.
  const int64_t reserve = std::min(10 * overhead_ms, left / 2);
  const int64_t cap = limits.moves_to_go == 1 ? left / 2 : (left - reserve) / 5 + inc / 2;
  hard_ = std::max<int64_t>(1, std::min({soft_ * 5, cap, left - 1}));
  soft_ = std::min(soft_, hard_);
}

bool TimeManager::must_stop(int64_t elapsed, int drop) const {
  if (!hard_) return false;
  // An iteration started before the soft target may run to twice it; a root failing low
  // earns part of the rest up to the hard limit, in proportion to the centipawns at stake.
  const int64_t normal = std::min(hard_, 2 * soft_);
  const int64_t deep_think = drop > 0 ? (hard_ - normal) * std::min(drop, 200) / 200 : 0;
  return elapsed >= normal + deep_think;
}

}  // namespace vblitz::search
