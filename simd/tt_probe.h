// Transposition-table probe kernels: eight slots examined in one pass, finding the matching
// entry and Cray Blitz's replacement victim together.
//  - bucket layout: the eight slots are one 64-byte cache line;
//  - Cray layout: slot k is at table[base + k * stride] (Cray Blitz's eight scattered slots,
//    fetched with one gather; the table must extend 7 * stride entries past base).
// Each has a scalar twin (the oracle) and a Highway kernel; the plain names pick one by the
// process-wide Kernels setting.
#pragma once

#include <cstddef>
#include <cstdint>

#include "simd/dispatch.h"
#include "simd/tt_entry.h"

namespace vblitz::simd {

constexpr int kBucketSlots = 8;

tt::ProbeResult probe_bucket_scalar(const uint64_t* bucket, uint16_t key16, uint8_t age, tt::Bound new_bound);
tt::ProbeResult probe_bucket_vector(const uint64_t* bucket, uint16_t key16, uint8_t age, tt::Bound new_bound);

tt::ProbeResult probe_cray_scalar(const uint64_t* table, uint64_t base, uint64_t stride, uint16_t key16,
                                  uint8_t age, tt::Bound new_bound);
tt::ProbeResult probe_cray_vector(const uint64_t* table, uint64_t base, uint64_t stride, uint16_t key16,
                                  uint8_t age, tt::Bound new_bound);

inline tt::ProbeResult probe_bucket(const uint64_t* bucket, uint16_t key16, uint8_t age,
                                    tt::Bound new_bound) {
  return use_vector(Kernel::kTtProbe) ? probe_bucket_vector(bucket, key16, age, new_bound)
                                      : probe_bucket_scalar(bucket, key16, age, new_bound);
}

inline tt::ProbeResult probe_cray(const uint64_t* table, uint64_t base, uint64_t stride, uint16_t key16,
                                  uint8_t age, tt::Bound new_bound) {
  return use_vector(Kernel::kTtProbe) ? probe_cray_vector(table, base, stride, key16, age, new_bound)
                                      : probe_cray_scalar(table, base, stride, key16, age, new_bound);
}

}  // namespace vblitz::simd
