// The search's tunable constants, declared once: name, value, the range a tuner may explore and
// its step (SPSA's final perturbation c_end, in the parameter's units), and the step of the
// search (docs/search.md) that uses it. The commits that set the values give their
// measurements; `vblitz spsa` (tune/spsa.h) tunes them and `SearchParamFile` loads tuned values.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace vblitz::search {

// X(name, value, min, max, step, use)
#define VBLITZ_SEARCH_PARAMS(X)                                                                      \
  X(reverse_futility_margin, 150, 50, 300, 12, "step 5: cp per ply of depth above beta")             \
  X(reverse_futility_max_depth, 6, 3, 10, 0.5, "step 5: deepest node it applies to")                 \
  X(null_move_min_depth, 3, 2, 5, 0.5, "step 6: shallowest node that tries a null move")             \
  X(null_move_base_reduction, 3, 1, 5, 0.5, "step 6: plies the null move is reduced by ...")         \
  X(null_move_depth_divisor, 4, 2, 8, 0.5, "step 6: ... plus a ply per this many of depth ...")      \
  X(null_move_eval_step, 200, 80, 400, 16, "step 6: ... plus a ply per this many cp above beta ...") \
  X(null_move_max_eval_reduction, 3, 0, 6, 0.5, "step 6: ... up to this many")                       \
  X(iir_min_depth, 4, 2, 8, 0.5, "step 7: shallowest node reduced for lack of a hash move")          \
  X(futility_margin, 200, 80, 350, 14, "step 9: cp per ply of depth (plus one) below alpha")         \
  X(futility_max_depth, 3, 1, 6, 0.5, "step 9: deepest node with futility pruning")                  \
  X(late_move_max_depth, 5, 2, 8, 0.5, "step 9: deepest node with late-move pruning")                \
  X(late_move_base, 2, 0, 6, 0.5, "step 9: quiet moves kept: this + depth^2 / 2 ...")                \
  X(late_move_improving_base, 4, 1, 8, 0.5, "step 9: ... or this + depth^2 when improving")          \
  X(see_prune_max_depth, 6, 2, 10, 0.5, "step 9: deepest node with SEE pruning")                     \
  X(see_quiet_margin, 50, 10, 150, 7, "step 9: cp per ply a quiet move may lose by SEE")             \
  X(see_capture_margin, 90, 20, 200, 9, "step 9: cp per ply a capture may lose by SEE")              \
  X(singular_min_depth, 8, 5, 12, 0.5, "step 10: shallowest node with singular extension")           \
  X(singular_tt_depth_slack, 3, 1, 5, 0.5, "step 10: plies the stored depth may be short by")        \
  X(singular_margin_per_ply, 2, 1, 6, 0.5, "step 10: cp per ply below the stored score")             \
  X(check_extension_min_depth, 10, 1, 16, 0.5, "step 11: shallowest node whose checks extend ...")   \
  X(check_extension_min_eval, 72, 0, 200, 9, "step 11: ... where |static eval| is at least this")    \
  X(reduction_min_depth, 3, 2, 5, 0.5, "step 12: shallowest node with late move reductions")         \
  X(reduction_base, 75, 0, 200, 10, "step 12: reduction = (base + 100 ln d ln m / divisor) / 100")   \
  X(reduction_divisor, 225, 150, 400, 12, "step 12: (in hundredths)")                                \
  X(reduction_history_step, 12000, 4000, 30000, 1300, "step 12: a ply less per this much history")   \
  X(history_bonus_scale, 32, 8, 64, 3, "step 13: history bonus scale x min(depth^2, cap)")           \
  X(max_history_bonus_depth2, 400, 100, 1200, 55, "step 13: the cap")                                \
  X(aspiration_window, 25, 10, 60, 3, "root: the first window around the last score (cp)")

struct SearchParams {
#define VBLITZ_DECLARE_FIELD(name, value, min, max, step, use) int name = value;
  VBLITZ_SEARCH_PARAMS(VBLITZ_DECLARE_FIELD)
#undef VBLITZ_DECLARE_FIELD
  bool operator==(const SearchParams& other) const;
  bool operator!=(const SearchParams& other) const { return !(*this == other); }
};

// One parameter's declaration, for tuners and files.
struct TunableParam {
  const char* name;
  int SearchParams::*field;
  int value, min, max;
  double step;  // SPSA's c_end
  const char* use;
};
const std::vector<TunableParam>& tunable_params();
const TunableParam* find_param(const std::string& name);

// Text of `name value` lines for every parameter (the format SearchParamFile reads).
std::string write_search_params(const SearchParams& params);
// Reads `name value` lines (blank lines and `#` comments skipped) over `params`: parameters
// not named keep their values. An error names the line and leaves `params` unchanged.
std::optional<std::string> read_search_params(const std::string& text, SearchParams& params);

}  // namespace vblitz::search
