// The benchmarking commands of the command line: `bench`, `speedtest` and `sweep`, each of
// which also writes its result as JSON with `--json FILE` (app/json_report.h).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "search/search.h"

namespace vblitz::app {

// True for "bench", "speedtest" and "sweep".
bool is_speed_command(const std::string& command);

// Runs `command` with its arguments (after the command word) and the search settings `options`;
// results go to `out`, progress and errors to `err`. Returns the exit status: 0, 1 when a sweep
// finds different bench signatures or the JSON file cannot be written, 2 for bad arguments.
int run_speed_command(const std::string& command, std::vector<std::string> args,
                      const search::Options& options, std::ostream& out, std::ostream& err);

}  // namespace vblitz::app
