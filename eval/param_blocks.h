// Parameter blocks per opening family. Cray Blitz loaded one block of evaluation parameters for
// 1.e4 openings and another for 1.d4 openings; VBlitz keeps a block per family, chosen by the
// `ParamBlock` option or, when it is `auto`, by the opening the game came from.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "eval/params.h"

namespace vblitz::eval {

enum class Family { kDefault, kE4, kD4, kFlank };
constexpr int kFamilyCount = 4;

// "default", "e4", "d4", "flank".
const char* family_name(Family f);
std::optional<Family> parse_family(std::string_view name);
// The family of a game from the standard start whose first move (UCI) was `first_move`:
// e2e4 -> e4, d2d4 -> d4, anything else -> flank.
Family family_of_first_move(std::string_view first_move);

// The base table and one block per family (the default family's block is the base).
struct ParamSet {
  std::array<Params, kFamilyCount> blocks;
  const Params& operator[](Family f) const { return blocks[int(f)]; }
};

// The hand-set defaults with the built-in family blocks.
const ParamSet& default_param_set();
// The base as write_params writes it, then a "[family]" section per block listing the entries
// that differ from the base.
std::string write_param_set(const ParamSet& set);
// Reads a parameter file: lines before the first "[family]" header override the defaults'
// base, lines after it override that family's block, which starts from the file's base.
// Blocks without a section equal the base. On an error returns "line N: reason" and leaves
// `set` unchanged.
std::optional<std::string> read_param_set(const std::string& text, ParamSet& set);

}  // namespace vblitz::eval
