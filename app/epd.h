// EPD test suites for scripts: positions with their best (bm) and avoid (am) moves turned from
// SAN into UCI notation, so any UCI engine can be scored on them (perf/epd_test.py).
#pragma once

#include <iosfwd>
#include <string>

namespace vblitz::app {

// Reads `path` and prints one tab-separated line per position: FEN, bm moves, am moves, id.
// Lines it cannot use are reported on `errors` with their number. Returns 0, or 1 if the file
// cannot be read.
int print_epd_moves(const std::string& path, std::ostream& out, std::ostream& errors);

}  // namespace vblitz::app
