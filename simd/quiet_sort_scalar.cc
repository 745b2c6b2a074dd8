// Scalar twin of the move-ordering kernel: an insertion sort (stable).
#include "simd/quiet_sort.h"

namespace vblitz::simd {

void sort_by_score_scalar(core::Move* moves, int32_t* scores, size_t count) {
  for (size_t i = 1; i < count; ++i) {
    const core::Move m = moves[i];
    const int32_t s = scores[i];
    size_t j = i;
    for (; j > 0 && scores[j - 1] < s; --j) moves[j] = moves[j - 1], scores[j] = scores[j - 1];
    moves[j] = m;
    scores[j] = s;
  }
}

}  // namespace vblitz::simd
