// Kernel selection: a flag for scalar/vector, and Highway's supported-target mask for the cap.
#include "simd/dispatch.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "simd/dispatch.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace vblitz::simd::HWY_NAMESPACE {
// Which target this copy of the function was compiled for.
int64_t CompiledTarget() { return HWY_TARGET; }
}  // namespace vblitz::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <algorithm>
#include <cctype>

#include "core/movegen.h"
#include "core/perft.h"
#include "core/text.h"
#include "simd/child_count.h"
#include "simd/dispatch_table.h"
#include "simd/move_count.h"
#include "simd/serialize.h"

namespace vblitz::simd {

// The kernels whose Highway version is the default: each measured faster than its scalar
// twin on the reference machine (docs/kernels.md). Serialization and the killer-list search
// are not: per call, the dispatch costs more than the short scalar loops they replace.
constexpr unsigned kDefaultVectorKernels =
    1u << unsigned(Kernel::kTtProbe) | 1u << unsigned(Kernel::kSliderAttacks) |
    1u << unsigned(Kernel::kTableScan) | 1u << unsigned(Kernel::kNetwork) |
    1u << unsigned(Kernel::kQuietSort);
constexpr unsigned kAllKernels = (1u << unsigned(Kernel::kCount)) - 1;
// Move and child counting pay only where the target counts the bits of 64-bit lanes in one instruction
// (AVX-512 VPOPCNTDQ); elsewhere Highway emulates the count and the twin is faster (docs/kernels.md).
constexpr const char* kNativePopcountTargets[] = {"avx3_dl"};

namespace detail {
std::atomic<unsigned> vector_mask{kDefaultVectorKernels};
}  // namespace detail

namespace {
std::atomic<Kernels> selected_kernels{Kernels::kVector};
}  // namespace

namespace {

// The dispatch-table index of the target Highway now chooses.
size_t chosen_index() {
  hwy::GetChosenTarget().Update(hwy::SupportedTargets());
  return hwy::GetChosenTarget().GetIndex();
}

}  // namespace

namespace detail {
std::atomic<size_t> dispatch_index{chosen_index()};
}  // namespace detail

namespace {

// Gives core's move generator the serializer and the move counter for the current selection:
// the vector kernels of the chosen target (resolved once, so each call is one indirect jump),
// or none for the scalar twins; and perft its child counter, the kernel or its twin.
void install_move_serializer() {
  core::set_move_serializer(use_vector(Kernel::kSerialize) ? serialize_vector_pointer() : nullptr);
  core::set_piece_move_counter(use_vector(Kernel::kMoveCount) ? count_piece_moves_vector_pointer() : nullptr);
  core::set_child_counter(use_vector(Kernel::kChildCount) ? count_child_moves_vector_pointer()
                                                          : &count_child_moves_scalar);
}

}  // namespace

namespace {

HWY_EXPORT(CompiledTarget);

struct TargetEntry {
  std::string name;
  int64_t bit;
};

const std::vector<TargetEntry>& target_entries() {
  static const std::vector<TargetEntry> entries = [] {
    std::vector<TargetEntry> list;
    for (int64_t t : hwy::SupportedAndGeneratedTargets())
      list.push_back({core::to_lower(hwy::TargetName(t)), t});
    return list;
  }();
  return entries;
}

std::string& selected_target() {
  static std::string name = "best";
  return name;
}

}  // namespace

namespace {

// The kernels `Kernels vector` runs on the active target: the fixed set, plus move and child counting
// where the target has a native 64-bit vector popcount.
unsigned default_vector_kernels() {
  const std::string target = active_target();
  for (const char* name : kNativePopcountTargets)
    if (target == name)
      return kDefaultVectorKernels | 1u << unsigned(Kernel::kMoveCount) | 1u << unsigned(Kernel::kChildCount);
  return kDefaultVectorKernels;
}

// Sets the kernel mask for the selection k on the active target and installs core's kernels.
void apply_kernels(Kernels k) {
  unsigned mask = k == Kernels::kVector      ? default_vector_kernels()
                  : k == Kernels::kAllVector ? kAllKernels
                                             : 0;
  detail::vector_mask.store(mask, std::memory_order_relaxed);
  install_move_serializer();
}

// The start-up selection, Kernels vector on Highway's best target, installed before main.
const bool default_kernels_applied = (apply_kernels(Kernels::kVector), true);

}  // namespace

void set_kernels(Kernels k) {
  selected_kernels.store(k, std::memory_order_relaxed);
  apply_kernels(k);
}
Kernels kernels() { return selected_kernels.load(std::memory_order_relaxed); }
const char* kernels_name(Kernels k) {
  return k == Kernels::kVector ? "vector" : k == Kernels::kScalar ? "scalar" : "all-vector";
}
const char* kernel_name(Kernel k) {
  static const char* const names[] = {"tt_probe",   "slider_attacks", "serialize",
                                      "table_scan", "killer_match",   "network",
                                      "move_count", "child_count",    "quiet_sort"};
  return names[unsigned(k)];
}

bool parse_kernels(std::string_view text, Kernels& k) {
  std::string t = core::to_lower(text);
  if (t == "vector")
    k = Kernels::kVector;
  else if (t == "scalar")
    k = Kernels::kScalar;
  else if (t == "all-vector")
    k = Kernels::kAllVector;
  else
    return false;
  return true;
}

const std::vector<std::string>& available_targets() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> list;
    for (const TargetEntry& e : target_entries()) list.push_back(e.name);
    return list;
  }();
  return names;
}

bool set_simd_target(std::string_view name) {
  std::string wanted = core::to_lower(name);
  target_entries();  // read the real CPU's targets before any restriction
  if (wanted == "best") {
    hwy::SetSupportedTargetsForTest(0);  // 0 removes the restriction
    selected_target() = wanted;
    detail::dispatch_index.store(chosen_index(), std::memory_order_relaxed);
    apply_kernels(kernels());
    return true;
  }
  for (const TargetEntry& e : target_entries()) {
    if (e.name != wanted) continue;
    // Highway's documented hook for running one target: dispatch sees only this one.
    hwy::SetSupportedTargetsForTest(e.bit);
    selected_target() = wanted;
    detail::dispatch_index.store(chosen_index(), std::memory_order_relaxed);
    apply_kernels(kernels());
    return true;
  }
  return false;
}

const std::string& simd_target() { return selected_target(); }

std::string active_target() {
  // The kernels' own dispatch index, not HWY_DYNAMIC_DISPATCH: on aarch64 every call of
  // hwy::SupportedTargets() (Highway 1.0.3) resets libhwy's chosen target without SVE2_128 and
  // SVE_256, so libhwy's choice could name SVE2 while the kernels run SVE2_128.
  return core::to_lower(hwy::TargetName(
      HWY_DISPATCH_TABLE(CompiledTarget)[detail::dispatch_index.load(std::memory_order_relaxed)]()));
}

std::string describe() {
  std::string text = std::string("kernels ") + kernels_name(kernels()) + " (vector:";
  for (unsigned k = 0; k < unsigned(Kernel::kCount); ++k)
    if (use_vector(Kernel(k))) text += std::string(" ") + kernel_name(Kernel(k));
  text += "), SIMD target " + active_target();
  text += " (" + simd_target() + " of";
  for (const std::string& t : available_targets()) text += " " + t;
  return text + ")";
}

}  // namespace vblitz::simd
#endif  // HWY_ONCE
