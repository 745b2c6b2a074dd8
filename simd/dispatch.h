// Kernel selection. Users choose between the Highway kernels ("vector") and their plain scalar
// twins ("scalar"), and may cap the SIMD target Highway dispatches to, so that one binary can
// compare SSE4, AVX2 and AVX-512 (UCI options Kernels and SimdTarget).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/movegen.h"

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

// A kernel selection: which kernels run their Highway version, on which Highway target, and
// the kernels core's generator and perft call for it. Every thread runs with one selection
// (current()): the process's, which tools and tests set with the free functions below, unless a
// Scope installed another. An engine owns its selection (uci::Engine: options Kernels and
// SimdTarget) and installs it on its threads; a thread pool's threads run with the selection of
// the thread that started the search. So engines in one process choose independently.
class Dispatch {
 public:
  // Kernels vector on Highway's best target for this CPU.
  Dispatch() { apply(); }
  // The process's selection before start-up resolves it (set_kernels does): no kernel
  // vectorized, table entry 0 (Highway's own dispatch), so a call before then is still correct.
  struct Unresolved {};
  constexpr explicit Dispatch(Unresolved) {}
  void set_kernels(Kernels k) {
    kernels_ = k;
    apply();
  }
  // Restricts dispatch to one of available_targets(), or "best" for Highway's own choice.
  // Returns false (and changes nothing) for any other name.
  bool set_target(std::string_view name);
  Kernels kernels() const { return kernels_; }
  // The selection made by set_target: "best" or a target name.
  std::string target() const;
  // The target the dispatched kernels run on (e.g. "avx3_dl").
  std::string active_target() const;
  // One line for users: "kernels vector (tt_probe ...), SIMD target avx3_dl (best of ...)".
  std::string describe() const;
  // True when kernel k runs its Highway version.
  bool vector(Kernel k) const { return mask_ & (1u << unsigned(k)); }
  // Index into every HWY_EXPORT table for the target.
  size_t index() const { return index_; }
  const core::MoveKernels& move_kernels() const { return move_kernels_; }

 private:
  // Sets the mask, the index and the move kernels from the kernels and the target.
  void apply();

  Kernels kernels_ = Kernels::kVector;
  int64_t target_bit_ = 0;  // 0: Highway's best target
  unsigned mask_ = 0;
  size_t index_ = 0;
  core::MoveKernels move_kernels_;
};

namespace detail {
extern Dispatch process_dispatch;
inline constinit thread_local const Dispatch* thread_dispatch = &process_dispatch;
}  // namespace detail

// The calling thread's selection.
inline const Dispatch& current() { return *detail::thread_dispatch; }

// Installs `d` (and its move kernels) for the calling thread until the scope ends; `d` must
// outlive the scope and not change while it is installed.
class Scope {
 public:
  explicit Scope(const Dispatch& d) : saved_(detail::thread_dispatch), moves_(d.move_kernels()) {
    detail::thread_dispatch = &d;
  }
  ~Scope() { detail::thread_dispatch = saved_; }
  Scope(const Scope&) = delete;
  Scope& operator=(const Scope&) = delete;

 private:
  const Dispatch* saved_;
  core::MoveKernelScope moves_;
};

// True when kernel k runs its Highway version on this thread. Cheap enough for hot paths.
inline bool use_vector(Kernel k) { return current().vector(k); }

// The process's selection (threads without a Scope run with it); only while no search runs.
void set_kernels(Kernels k);
Kernels kernels();
const char* kernels_name(Kernels k);  // "vector", "scalar" or "all-vector"
const char* kernel_name(Kernel k);    // "tt_probe", "slider_attacks", ...
// Parses "vector", "scalar" or "all-vector" (any case); false for anything else.
bool parse_kernels(std::string_view text, Kernels& k);

// Highway targets compiled into this binary and supported by this CPU, best first, in lower
// case as Highway names them ("avx3_dl", "avx3", "avx2", "sse4", "ssse3", "scalar", ...).
const std::vector<std::string>& available_targets();
// Restricts the process's selection to one of available_targets(), or "best"; false (and
// nothing changed) for any other name.
bool set_simd_target(std::string_view name);
// The process's selection made by set_simd_target: "best" or a target name.
std::string simd_target();
// The target the calling thread's kernels run on now (e.g. "avx3_dl").
std::string active_target();
// describe() of the calling thread's selection.
std::string describe();

}  // namespace vblitz::simd
