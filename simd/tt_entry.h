// The 64-bit transposition-table entry, shared by the probe kernels and the table itself.
//
//   bits  0-15  key check: the top 16 bits of the position key
//   bits 16-31  move (core::Move, raw 16 bits)
//   bits 32-47  score (signed 16 bits; mate scores relative to the node)
//   bits 48-55  draft (remaining depth in plies, offset so that 0 is never a real draft)
//   bits 56-57  bound: 0 empty slot, 1 upper, 2 lower, 3 exact
//   bits 58-63  age: the search generation (mod 64) that wrote the entry
//
// The whole entry is one 64-bit word, so a reader can never see half of one write: a torn
// entry is impossible, and a stale one fails the key check or the move's legality check.
#pragma once

#include <cstdint>

namespace vblitz::simd::tt {

enum Bound : uint8_t { BOUND_NONE = 0, BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

constexpr int kMoveShift = 16, kScoreShift = 32, kDraftShift = 48, kBoundShift = 56, kAgeShift = 58;
constexpr uint64_t kKeyMask = 0xFFFF;
constexpr int kAgeCycle = 64;

constexpr uint64_t pack(uint16_t key16, uint16_t move, int16_t score, uint8_t draft, Bound bound,
                        uint8_t age) {
  return uint64_t(key16) | uint64_t(move) << kMoveShift | uint64_t(uint16_t(score)) << kScoreShift |
         uint64_t(draft) << kDraftShift | uint64_t(bound & 3) << kBoundShift |
         uint64_t(age % kAgeCycle) << kAgeShift;
}
constexpr uint16_t key_of(uint64_t e) { return uint16_t(e & kKeyMask); }
constexpr uint16_t move_of(uint64_t e) { return uint16_t(e >> kMoveShift); }
constexpr int16_t score_of(uint64_t e) { return int16_t(uint16_t(e >> kScoreShift)); }
constexpr uint8_t draft_of(uint64_t e) { return uint8_t(e >> kDraftShift); }
constexpr Bound bound_of(uint64_t e) { return Bound((e >> kBoundShift) & 3); }
constexpr uint8_t age_of(uint64_t e) { return uint8_t(e >> kAgeShift); }

// True if the slot holds an entry for this key check.
constexpr bool matches(uint64_t e, uint16_t key16) { return bound_of(e) != BOUND_NONE && key_of(e) == key16; }

// Cray Blitz's replacement order as one number, lowest replaced first: an empty slot; then
// entries from a previous search before entries of this one; then, when a bound is being
// stored, other entries before exact scores; then the smallest draft.
constexpr uint32_t replacement_value(uint64_t e, uint8_t age, Bound new_bound) {
  if (bound_of(e) == BOUND_NONE) return 0;
  bool current = age_of(e) == age % kAgeCycle;
  bool protect_exact = bound_of(e) == BOUND_EXACT && new_bound != BOUND_EXACT;
  return uint32_t(current) << 10 | uint32_t(protect_exact) << 9 | uint32_t(draft_of(e)) << 1 | 1;
}

// Where a probe found the key (hit, or -1) and which slot to overwrite otherwise (victim).
// Ties between equal replacement values go to the lowest slot.
struct ProbeResult {
  int hit;
  int victim;
  bool operator==(const ProbeResult&) const = default;
};

}  // namespace vblitz::simd::tt
