// Scalar twins of the probe kernels: plain loops over the eight slots. They are the oracle.
#include "simd/tt_probe.h"

namespace vblitz::simd {

namespace {

// Scans slots slot(0..7) in order: first match, and lowest replacement value (first on ties).
template <class SlotFn>
tt::ProbeResult scan(SlotFn slot, uint16_t key16, uint8_t age, tt::Bound new_bound) {
  tt::ProbeResult r{-1, 0};
  uint32_t best = UINT32_MAX;
  for (int k = 0; k < kBucketSlots; ++k) {
    uint64_t e = slot(k);
    if (r.hit < 0 && tt::matches(e, key16)) r.hit = k;
    uint32_t value = tt::replacement_value(e, age, new_bound);
    if (value < best) {
      best = value;
      r.victim = k;
    }
  }
  return r;
}

}  // namespace

tt::ProbeResult probe_bucket_scalar(const uint64_t* bucket, uint16_t key16, uint8_t age,
                                    tt::Bound new_bound) {
  return scan([bucket](int k) { return bucket[k]; }, key16, age, new_bound);
}

tt::ProbeResult probe_cray_scalar(const uint64_t* table, uint64_t base, uint64_t stride, uint16_t key16,
                                  uint8_t age, tt::Bound new_bound) {
  return scan([=](int k) { return table[base + uint64_t(k) * stride]; }, key16, age, new_bound);
}

}  // namespace vblitz::simd
