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

constinit Dispatch detail::process_dispatch{Dispatch::Unresolved{}};

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

// The dispatch-table index of a target (0: Highway's best for this CPU), computed as Highway's
// own dispatch does but without its process-wide state, so each selection keeps its own.
size_t index_of(int64_t bit) {
  hwy::ChosenTarget chosen;
  chosen.Update(bit ? bit : hwy::SupportedTargets());
  return chosen.GetIndex();
}

// The start-up selection, Kernels vector on Highway's best target, made before main.
const bool process_dispatch_resolved = (detail::process_dispatch.set_kernels(Kernels::kVector), true);

}  // namespace

void Dispatch::apply() {
  index_ = index_of(target_bit_);
  unsigned mask = kernels_ == Kernels::kVector      ? kDefaultVectorKernels
                  : kernels_ == Kernels::kAllVector ? kAllKernels
                                                    : 0;
  // Move and child counting join `vector` where the target has a native 64-bit popcount.
  if (kernels_ == Kernels::kVector)
    for (const char* name : kNativePopcountTargets)
      if (active_target() == name)
        mask |= 1u << unsigned(Kernel::kMoveCount) | 1u << unsigned(Kernel::kChildCount);
  mask_ = mask;
  // Core's generator and perft get the serializer and the move counter of this selection (the
  // target's kernels, resolved here so each call is one indirect jump, or none for the scalar
  // twins), and perft its child counter, the kernel or its twin.
  move_kernels_.serialize = vector(Kernel::kSerialize) ? serialize_vector_pointer(index_) : nullptr;
  move_kernels_.count = vector(Kernel::kMoveCount) ? count_piece_moves_vector_pointer(index_) : nullptr;
  move_kernels_.child =
      vector(Kernel::kChildCount) ? count_child_moves_vector_pointer(index_) : &count_child_moves_scalar;
  if (this == &detail::process_dispatch) {  // threads without a Scope read core's process set
    core::set_move_serializer(move_kernels_.serialize);
    core::set_piece_move_counter(move_kernels_.count);
    core::set_child_counter(move_kernels_.child);
  }
}

bool Dispatch::set_target(std::string_view name) {
  const std::string wanted = core::to_lower(name);
  if (wanted == "best") {
    target_bit_ = 0;
    apply();
    return true;
  }
  for (const TargetEntry& e : target_entries()) {
    if (e.name != wanted) continue;
    target_bit_ = e.bit;
    apply();
    return true;
  }
  return false;
}

std::string Dispatch::target() const {
  return target_bit_ ? core::to_lower(hwy::TargetName(target_bit_)) : "best";
}

std::string Dispatch::active_target() const {
  return core::to_lower(hwy::TargetName(HWY_DISPATCH_TABLE(CompiledTarget)[index_]()));
}

std::string Dispatch::describe() const {
  std::string text = std::string("kernels ") + kernels_name(kernels_) + " (vector:";
  for (unsigned k = 0; k < unsigned(Kernel::kCount); ++k)
    if (vector(Kernel(k))) text += std::string(" ") + kernel_name(Kernel(k));
  text += "), SIMD target " + active_target();
  text += " (" + target() + " of";
  for (const std::string& t : available_targets()) text += " " + t;
  return text + ")";
}

void set_kernels(Kernels k) { detail::process_dispatch.set_kernels(k); }
Kernels kernels() { return detail::process_dispatch.kernels(); }
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

bool set_simd_target(std::string_view name) { return detail::process_dispatch.set_target(name); }
std::string simd_target() { return detail::process_dispatch.target(); }
std::string active_target() { return current().active_target(); }
std::string describe() { return current().describe(); }

}  // namespace vblitz::simd
#endif  // HWY_ONCE
