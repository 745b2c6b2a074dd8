// Internal to simd/*.cc: calls a kernel through its Highway dispatch table at the index cached
// by dispatch.cc. Highway's HWY_DYNAMIC_DISPATCH asks libhwy for the chosen target on every
// call (an out-of-line call); for kernels of a few nanoseconds that is a large share.
#pragma once

#include <atomic>
#include <cstddef>

namespace vblitz::simd::detail {
// Index into every HWY_EXPORT table for the current target; updated with the selection.
extern std::atomic<size_t> dispatch_index;
}  // namespace vblitz::simd::detail

#define VBLITZ_DISPATCH(FUNC) \
  (*HWY_DISPATCH_TABLE(FUNC)[::vblitz::simd::detail::dispatch_index.load(std::memory_order_relaxed)])
