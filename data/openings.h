// `vblitz openings`: a balanced opening set for matches and soaks, made reproducibly from the
// standard start: random legal plies, kept when a fixed-node search scores the position close
// to equal (docs/matches.md).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "search/search.h"

namespace vblitz::data {

struct OpeningsOptions {
  std::string out_path;
  int count = 100;         // openings written
  int plies = 8;           // random legal plies from the start
  uint64_t nodes = 20000;  // the search that judges the balance
  int max_score = 50;      // kept when |score| is at most this, in centipawns
  uint64_t seed = 1;
  search::EvalMode eval_mode = search::kDefaultEvalMode;
};

// Parses the arguments after "openings": OUT.epd [--count N] [--plies N] [--nodes N]
// [--max-score CP] [--seed N]. Returns the error, if any.
std::optional<std::string> parse_openings_args(const std::vector<std::string>& args,
                                               OpeningsOptions& options);
const char* openings_usage();

// Writes the set (one EPD line a position: the FEN's first four fields) and reports on `log`;
// returns the exit status (0, or 1 when the file cannot be written or too few positions pass).
int run_openings(const OpeningsOptions& options, std::ostream& log);

}  // namespace vblitz::data
