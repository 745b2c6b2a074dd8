// Move-ordering kernel: sorts a node's quiet moves by their history scores, best first, as the
// move picker hands them out. The Highway version sorts packed 64-bit keys with Highway's
// vqsort (a sorting network for lists this short); the twin is an insertion sort.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/movegen.h"
#include "core/types.h"
#include "simd/dispatch.h"

namespace vblitz::simd {

// Sorts moves[0 .. count) and their scores[0 .. count) together by score, highest first;
// equal scores keep their order (the result is that of a stable sort). count <= core::kMaxMoves.
void sort_by_score_scalar(core::Move* moves, int32_t* scores, size_t count);
void sort_by_score_vector(core::Move* moves, int32_t* scores, size_t count);

inline void sort_by_score(core::Move* moves, int32_t* scores, size_t count) {
  use_vector(Kernel::kQuietSort) ? sort_by_score_vector(moves, scores, count)
                                 : sort_by_score_scalar(moves, scores, count);
}

}  // namespace vblitz::simd
