// The UCI spin options' names, ranges and defaults, written once: the `uci` listing and
// `setoption` both read them.
#pragma once

#include <string>
#include <string_view>

#include "search/search_link.h"

namespace vblitz::uci {

struct SpinOption {
  const char* name;
  long min, max, fallback;  // fallback: the default
  const char* unit;         // how an error names the value: "takes <unit> from <min> to <max>"

  // "option name <name> type spin default <fallback> min <min> max <max>"
  std::string declaration() const {
    return std::string("option name ") + name + " type spin default " + std::to_string(fallback) + " min " +
           std::to_string(min) + " max " + std::to_string(max);
  }
  // "<name> takes <unit> from <min> to <max>, not '<value>'"
  std::string complaint(std::string_view value) const {
    return std::string(name) + " takes " + unit + " from " + std::to_string(min) + " to " +
           std::to_string(max) + ", not '" + std::string(value.substr(0, 64)) + "'";
  }
};

inline constexpr SpinOption kHashOption{"Hash", 1, 65536, 16, "a size in MB"};
inline constexpr SpinOption kThreadsOption{"Threads", 1, 1024, 1, "a number"};
inline constexpr SpinOption kMoveOverheadOption{"Move Overhead", 0, 5000, 10, "milliseconds"};
inline constexpr SpinOption kMultiPvOption{"MultiPV", 1, 256, 1, "a number"};
inline constexpr SpinOption kBookDepthOption{"BookDepth", 1, 255, 255, "moves"};
inline constexpr SpinOption kBookVarietyOption{"BookVariety", 0, 100, 50, "a percentage"};
inline constexpr SpinOption kStyleOptions[] = {{"King Safety", 0, 200, 100, "a percentage"},
                                               {"Passed Pawns", 0, 200, 100, "a percentage"},
                                               {"Mobility", 0, 200, 100, "a percentage"},
                                               {"Pawn Structure", 0, 200, 100, "a percentage"}};
inline constexpr SpinOption kContemptOption{"Contempt", -100, 100, 0, "centipawns"};
inline constexpr SpinOption kKillersOption{"Killers", 1, 10, 2, "a number"};
// Cluster runs only: table stores this deep or deeper go to the other processes.
inline constexpr SpinOption kClusterShareDepthOption{"ClusterShareDepth", 1, 64,
                                                     search::SearchLink::kDefaultMinDepth, "plies"};

}  // namespace vblitz::uci
