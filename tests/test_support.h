// Shared helpers for the tests: locating data files and reading perft EPD suites.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace vblitz::test {

// One EPD line: a FEN and its known perft counts by depth.
struct PerftCase {
  std::string fen;
  std::vector<std::pair<int, uint64_t>> counts;  // (depth, leaf nodes)
  int line = 0;
};

// Path of a file in tests/data.
std::string data_file(const std::string& name);
// Reads a perft EPD file ("FEN ;D1 20 ;D2 400", tolerant of spacing and CRLF). Empty if absent.
std::vector<PerftCase> load_perft_suite(const std::string& path);
// All FENs of the perft suites in tests/data (standard, CPW and Chess960).
std::vector<std::string> suite_fens();

}  // namespace vblitz::test
