// A small deterministic pseudo-random generator (xorshift64*), for Zobrist keys, magic
// search and fixed-seed tests. Same seed, same sequence, on every platform.
#pragma once

#include <cstdint>

namespace vblitz::core {

class Prng {
 public:
  explicit Prng(uint64_t seed) : state_(seed ? seed : 0x9E3779B97F4A7C15ULL) {}

  uint64_t next() {
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    return state_ * 0x2545F4914F6CDD1DULL;
  }
  // A number with about 1/8 of its bits set (good magic candidates).
  uint64_t sparse() { return next() & next() & next(); }
  // Uniform-ish integer in [0, bound); bound must be non-zero.
  uint64_t below(uint64_t bound) { return next() % bound; }

 private:
  uint64_t state_;
};

}  // namespace vblitz::core
