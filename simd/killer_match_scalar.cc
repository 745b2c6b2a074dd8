// Scalar twin of the killer-list kernel: a linear search.
#include "simd/killer_match.h"

namespace vblitz::simd {

int find_move_scalar(const uint16_t* list, size_t count, uint16_t move) {
  for (size_t i = 0; i < count; ++i)
    if (list[i] == move) return int(i);
  return -1;
}

}  // namespace vblitz::simd
