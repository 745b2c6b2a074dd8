// Process-wide kernel selection. Users choose between the Highway kernels ("vector") and their
// plain scalar twins ("scalar"), and may cap the SIMD target Highway dispatches to, so that one
// binary can compare SSE4, AVX2 and AVX-512 (UCI options Kernels and SimdTarget).
#pragma once

#include <atomic>
#include <string>
#include <string_view>
#include <vector>

namespace vblitz::simd {

enum class Kernels { kVector, kScalar };

namespace detail {
extern std::atomic<bool> vector_kernels;
}  // namespace detail

// True when the vector kernels are selected. Cheap enough for hot paths (a relaxed load).
inline bool use_vector() { return detail::vector_kernels.load(std::memory_order_relaxed); }

void set_kernels(Kernels k);
Kernels kernels();
const char* kernels_name(Kernels k);  // "vector" or "scalar"
// Parses "vector" or "scalar" (any case); false for anything else.
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
// One line for users: "kernels vector, SIMD target avx3_dl (best of avx3_dl avx3 ...)".
std::string describe();

}  // namespace vblitz::simd
