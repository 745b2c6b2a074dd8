// Scalar twins of the network kernels: one lane at a time. This file is compiled with
// auto-vectorization off (simd/CMakeLists.txt), or the twin would not be scalar.
#include <algorithm>

#include "simd/network_kernels.h"

namespace vblitz::simd {

void accumulate_scalar(int16_t* out, const int16_t* base, const int16_t* const* add, size_t add_count,
                       const int16_t* const* sub, size_t sub_count, size_t width) {
  if (out != base) std::copy_n(base, width, out);
  for (size_t k = 0; k < add_count; ++k)
    for (size_t i = 0; i < width; ++i) out[i] = int16_t(out[i] + add[k][i]);  // wraps, as the vector adds do
  for (size_t k = 0; k < sub_count; ++k)
    for (size_t i = 0; i < width; ++i) out[i] = int16_t(out[i] - sub[k][i]);
}

int32_t screlu_dot_scalar(const int16_t* acc, const int16_t* weights, size_t width, int16_t clip) {
  int32_t sum = 0;
  for (size_t i = 0; i < width; ++i) {
    const int32_t c = std::clamp<int16_t>(acc[i], 0, clip);
    sum += c * c * weights[i];
  }
  return sum;
}

}  // namespace vblitz::simd
