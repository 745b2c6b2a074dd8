// Formatting of search output in UCI terms: info lines and scores.
#pragma once

#include <string>

#include "core/position.h"
#include "search/search.h"

namespace vblitz::uci {

// "cp 31", "mate 3", "mate -2", with " lowerbound"/" upperbound" for a failed window.
std::string format_score(int score, search::Bound bound = search::Bound(simd::tt::BOUND_EXACT));
// A full "info depth ... pv ..." line for the report of a search from `root` (a
// "info depth D currmove M currmovenumber N" line for a currmove report); with `show_wdl`
// the score is followed by "wdl W D L" in permille.
std::string format_info(const search::Report& r, const core::Position& root, bool show_wdl = false);
// Win/draw/loss expectation in permille for a score, from a logistic model.
std::string format_wdl(int score);

}  // namespace vblitz::uci
