// Killer-list kernel: finds a move in a short list (Cray Blitz kept up to ten killers per ply)
// with one vector compare instead of a loop.
#pragma once

#include <cstddef>
#include <cstdint>

#include "simd/dispatch.h"

namespace vblitz::simd {

// Lists handed to the kernel must have this many readable entries, whatever `count` is.
constexpr size_t kKillerListCapacity = 16;

// Index of the first of list[0 .. count) equal to `move`, or -1. count <= kKillerListCapacity.
int find_move_scalar(const uint16_t* list, size_t count, uint16_t move);
int find_move_vector(const uint16_t* list, size_t count, uint16_t move);

inline int find_move(const uint16_t* list, size_t count, uint16_t move) {
  return use_vector(Kernel::kKillerMatch) ? find_move_vector(list, count, move)
                                          : find_move_scalar(list, count, move);
}

}  // namespace vblitz::simd
