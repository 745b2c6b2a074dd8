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

namespace vblitz::simd {

namespace detail {
std::atomic<bool> vector_kernels{true};
}  // namespace detail

namespace {

HWY_EXPORT(CompiledTarget);

std::string lower(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = char(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

struct TargetEntry {
  std::string name;
  int64_t bit;
};

const std::vector<TargetEntry>& target_entries() {
  static const std::vector<TargetEntry> entries = [] {
    std::vector<TargetEntry> list;
    for (int64_t t : hwy::SupportedAndGeneratedTargets()) list.push_back({lower(hwy::TargetName(t)), t});
    return list;
  }();
  return entries;
}

std::string& selected_target() {
  static std::string name = "best";
  return name;
}

}  // namespace

void set_kernels(Kernels k) {
  detail::vector_kernels.store(k == Kernels::kVector, std::memory_order_relaxed);
}
Kernels kernels() { return use_vector() ? Kernels::kVector : Kernels::kScalar; }
const char* kernels_name(Kernels k) { return k == Kernels::kVector ? "vector" : "scalar"; }

bool parse_kernels(std::string_view text, Kernels& k) {
  std::string t = lower(text);
  if (t == "vector")
    k = Kernels::kVector;
  else if (t == "scalar")
    k = Kernels::kScalar;
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
  std::string wanted = lower(name);
  target_entries();  // read the real CPU's targets before any restriction
  if (wanted == "best") {
    hwy::SetSupportedTargetsForTest(0);  // 0 removes the restriction
    selected_target() = wanted;
    return true;
  }
  for (const TargetEntry& e : target_entries()) {
    if (e.name != wanted) continue;
    // Highway's documented hook for running one target: dispatch sees only this one.
    hwy::SetSupportedTargetsForTest(e.bit);
    selected_target() = wanted;
    return true;
  }
  return false;
}

const std::string& simd_target() { return selected_target(); }

std::string active_target() { return lower(hwy::TargetName(HWY_DYNAMIC_DISPATCH(CompiledTarget)())); }

std::string describe() {
  std::string text = std::string("kernels ") + kernels_name(kernels()) + ", SIMD target " + active_target();
  text += " (" + simd_target() + " of";
  for (const std::string& t : available_targets()) text += " " + t;
  return text + ")";
}

}  // namespace vblitz::simd
#endif  // HWY_ONCE
