// Highway kernel for move-list serialization (compiled once per SIMD target).
#if defined(VBLITZ_SIMD_SERIALIZE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef VBLITZ_SIMD_SERIALIZE_INL_H_
#undef VBLITZ_SIMD_SERIALIZE_INL_H_
#else
#define VBLITZ_SIMD_SERIALIZE_INL_H_
#endif

#include <hwy/highway.h>

#include <bit>
#include <cstring>

#include "simd/serialize.h"

HWY_BEFORE_NAMESPACE();
namespace vblitz::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Lanes i .. i+N-1 of the 64 squares as candidate moves, compressed to the set bits of targets.
inline size_t Serialize(uint64_t targets, uint16_t to_factor, uint16_t base, uint16_t* HWY_RESTRICT out) {
  const hn::CappedTag<uint16_t, 64> d;
  const size_t N = hn::Lanes(d);
  // The bitboard's bytes in square order (on little-endian machines, its own memory).
  uint8_t bytes[8];
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(bytes, &targets, 8);
  } else {
    for (int k = 0; k < 8; ++k) bytes[k] = uint8_t(targets >> (8 * k));
  }
  const auto factor = hn::Set(d, to_factor);
  const auto offset = hn::Set(d, base);
  size_t count = 0;
  for (size_t i = 0; i < 64; i += N) {
    const uint64_t chunk = N >= 64 ? targets : (targets >> i) & ((uint64_t{1} << N) - 1);
    if (!chunk) continue;
    hn::Mask<decltype(d)> mask;
    if (N >= 8) {
      mask = hn::LoadMaskBits(d, bytes + i / 8);
    } else {  // fewer than 8 lanes: test each lane's bit directly
      const auto lane_bit = hn::Shl(hn::Set(d, 1), hn::Iota(d, 0));
      mask = hn::Ne(hn::And(hn::Set(d, uint16_t(chunk)), lane_bit), hn::Zero(d));
    }
    const auto moves = hn::Add(hn::Mul(hn::Iota(d, i), factor), offset);
    count += hn::CompressStore(moves, mask, d, out + count);
  }
  return count;
}

}  // namespace vblitz::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
