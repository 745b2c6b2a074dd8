// Time allocation (Cray Blitz's time utilisation): a soft target for starting iterations, a
// hard limit never crossed, and "deep think" -- when the root fails low near the target, extra
// time in proportion to the material at stake, still inside the hard limit.
#pragma once

#include <cstdint>

#include "core/types.h"
#include "search/limits.h"

namespace vblitz::search {

class TimeManager {
 public:
  // Plans the move for `us` from the limits; `overhead_ms` is the GUI's and network's share.
  void start(const Limits& limits, core::Color us, int64_t overhead_ms);

  // Milliseconds the search may use before it stops starting new iterations / stops at once.
  // 0 means no time limit.
  int64_t soft_limit() const { return soft_; }
  int64_t hard_limit() const { return hard_; }

  // True if a new iteration may start after `elapsed` ms.
  bool may_start_iteration(int64_t elapsed) const { return !soft_ || elapsed < soft_; }
  // True if the search must stop now: normally at twice the soft target (an iteration that
  // started in time may fail low quickly even if it cannot finish); while the root fails low
  // by `drop` centipawns, later, up to the hard limit at a drop of two pawns or more.
  bool must_stop(int64_t elapsed, int drop) const;

 private:
  int64_t soft_ = 0, hard_ = 0;
};

}  // namespace vblitz::search
