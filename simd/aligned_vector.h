// A std::vector whose storage starts on a 64-byte boundary (a cache line, and the width of an
// AVX-512 vector). Weight rows and accumulators of a multiple of 32 int16 values kept in one
// then never make a vector load straddle two cache lines; malloc aligns to 16 bytes only.
#pragma once

#include <cstddef>
#include <new>
#include <vector>

namespace vblitz::simd {

inline constexpr std::size_t kVectorAlignment = 64;

// Allocator of kVectorAlignment-aligned storage (C++17 aligned operator new).
template <class T>
struct VectorAlignedAllocator {
  using value_type = T;
  VectorAlignedAllocator() = default;
  template <class U>
  VectorAlignedAllocator(const VectorAlignedAllocator<U>&) {}
  T* allocate(std::size_t n) {
    return static_cast<T*>(::operator new (n * sizeof(T), std::align_val_t{kVectorAlignment}));
  }
  void deallocate(T* p, std::size_t) { ::operator delete (p, std::align_val_t{kVectorAlignment}); }
  template <class U>
  bool operator==(const VectorAlignedAllocator<U>&) const {
    return true;
  }
  template <class U>
  bool operator!=(const VectorAlignedAllocator<U>&) const {
    return false;
  }
};

template <class T>
using AlignedVector = std::vector<T, VectorAlignedAllocator<T>>;

}  // namespace vblitz::simd
