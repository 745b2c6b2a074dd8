// Move-list serialization kernel: a target bitboard becomes 16-bit moves, one per set bit in
// ascending square order (compress-store of a vector of candidate moves).
#pragma once

#include <cstddef>
#include <cstdint>

#include "simd/dispatch.h"

namespace vblitz::simd {

// How far past the written moves a vector kernel may store (the widest vector's lanes).
constexpr size_t kSerializeSlack = 128;

// Writes move = to * to_factor + base (mod 2^16) for every square `to` in `targets`, ascending,
// and returns how many it wrote. `out` needs room for popcount(targets) + kSerializeSlack.
// From a fixed square: to_factor 1, base from << 6. Pawn pushes by `offset`: to_factor 65,
// base -(offset << 6).
size_t serialize_scalar(uint64_t targets, uint16_t to_factor, uint16_t base, uint16_t* out);
size_t serialize_vector(uint64_t targets, uint16_t to_factor, uint16_t base, uint16_t* out);

// The vector kernel of the target at dispatch-table index `index` (Dispatch::index()) as a
// plain function pointer (no dispatch per call), for core::MoveKernels.
using SerializeFn = size_t (*)(uint64_t, uint16_t, uint16_t, uint16_t*);
SerializeFn serialize_vector_pointer(size_t index);

inline size_t serialize(uint64_t targets, uint16_t to_factor, uint16_t base, uint16_t* out) {
  return use_vector(Kernel::kSerialize) ? serialize_vector(targets, to_factor, base, out)
                                        : serialize_scalar(targets, to_factor, base, out);
}

}  // namespace vblitz::simd
