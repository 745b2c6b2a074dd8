// Kernels of the network evaluation (eval/network.h): the first layer's accumulator, kept as a
// sum of weight rows, and the output layer's squared clipped ReLU dot product. int16 lanes
// with wrapping adds and exact integer products, so every target equals the scalar twin bit
// for bit.
#pragma once

#include <cstddef>
#include <cstdint>

#include "simd/dispatch.h"

namespace vblitz::simd {

// out[i] = base[i] + sum of add[k][i] - sum of sub[k][i], for i < width, in wrapping int16
// arithmetic. `out` may equal `base`. A full refresh passes the bias as base and every active
// feature's row in `add`; a move's update passes the parent's accumulator and a few rows.
void accumulate_scalar(int16_t* out, const int16_t* base, const int16_t* const* add, size_t add_count,
                       const int16_t* const* sub, size_t sub_count, size_t width);
void accumulate_vector(int16_t* out, const int16_t* base, const int16_t* const* add, size_t add_count,
                       const int16_t* const* sub, size_t sub_count, size_t width);

// Sum over i < width of c_i * c_i * weights[i] with c_i = clamp(acc[i], 0, clip). The caller
// guarantees |clip * weights[i]| <= 32767 (each product c * w fits an int16) and that the sum
// fits an int32 (the network loader checks both).
int32_t screlu_dot_scalar(const int16_t* acc, const int16_t* weights, size_t width, int16_t clip);
int32_t screlu_dot_vector(const int16_t* acc, const int16_t* weights, size_t width, int16_t clip);

inline void accumulate(int16_t* out, const int16_t* base, const int16_t* const* add, size_t add_count,
                       const int16_t* const* sub, size_t sub_count, size_t width) {
  use_vector(Kernel::kNetwork) ? accumulate_vector(out, base, add, add_count, sub, sub_count, width)
                               : accumulate_scalar(out, base, add, add_count, sub, sub_count, width);
}
inline int32_t screlu_dot(const int16_t* acc, const int16_t* weights, size_t width, int16_t clip) {
  return use_vector(Kernel::kNetwork) ? screlu_dot_vector(acc, weights, width, clip)
                                      : screlu_dot_scalar(acc, weights, width, clip);
}

}  // namespace vblitz::simd
