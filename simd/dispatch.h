// Process-wide kernel selection. Users choose between the Highway kernels ("vector") and their
// plain scalar twins ("scalar"), and may cap the SIMD target Highway dispatches to, so that one
// binary can compare SSE4, AVX2 and AVX-512 (UCI options Kernels and SimdTarget).
#pragma once

#include <atomic>
#include <string>
#include <string_view>
#include <vector>

namespace vblitz::simd {

// The kernels, each with a Highway version and a scalar twin.
enum class Kernel {
  kTtProbe,
  kSliderAttacks,
  kSerialize,
  kTableScan,
  kKillerMatch,
  kNetwork,
  kMoveCount,
  kChildCount,
  kQuietSort,
  kCount
};

// What the Kernels setting selects:
//  kVector    (default) the Highway version of every kernel that beats its scalar twin in this
//             project's measurements (docs/kernels.md), the twin elsewhere;
//  kScalar    every scalar twin;
//  kAllVector every Highway version, including those that lose (for comparisons).
enum class Kernels { kVector, kScalar, kAllVector };

namespace detail {
extern std::atomic<unsigned> vector_mask;
}  // namespace detail

// True when kernel k runs its Highway version. Cheap enough for hot paths (a relaxed load).
inline bool use_vector(Kernel k) {
  return detail::vector_mask.load(std::memory_order_relaxed) & (1u << unsigned(k));
}

void set_kernels(Kernels k);
Kernels kernels();
const char* kernels_name(Kernels k);  // "vector", "scalar" or "all-vector"
const char* kernel_name(Kernel k);    // "tt_probe", "slider_attacks", ...
// Parses "vector", "scalar" or "all-vector" (any case); false for anything else.
bool parse_kernels(std::string_view text, Kernels& k);

// Highway targets compiled into this binary and supported by this CPU, best first, in lower
// case as Highway names them ("avx3_dl", "avx3", "avx2", "sse4", "ssse3", "scalar", ...).
const std::vector<std::string>& available_targets();
// Restricts dispatch to one of available_targets(), or "best" for Highway's own choice.
// Returns false (and changes nothing) for any other name. Call between searches only.
bool set_simd_target(std::string_view name);
// The selection made by set_simd_target: "best" or a target name.
const std::string& simd_target();
// The target the dispatched kernels actually run on now (e.g. "avx3_dl").
std::string active_target();
// One line for users: "kernels vector (tt_probe ...), SIMD target avx3_dl (best of ...)".
std::string describe();

}  // namespace vblitz::simd
