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

// Path of a file in tests/fixtures.
std::string data_file(const std::string& name);
// A directory for this test process's files, made on first use and removed when the process
// exits. ctest runs each test case as its own process, several at once: a fixed name in
// ::testing::TempDir() would be written by one case while another reads it.
const std::string& temp_dir();
// Reads a perft EPD file ("FEN ;D1 20 ;D2 400", tolerant of spacing and CRLF). A file that
// cannot be read fails the calling test (and gives no cases).
std::vector<PerftCase> load_perft_suite(const std::string& path);
// All FENs of the perft suites in tests/fixtures (standard, CPW and Chess960): kSuitePositions of
// them (a test fails if the files are missing or changed).
std::vector<std::string> suite_fens();
constexpr size_t kSuitePositions = 1095;
// The FEN with its files mirrored (a <-> h), without castling rights or en passant square
// (neither is a network feature; both would be wrong on the mirrored board).
std::string mirror_files(const std::string& fen);

}  // namespace vblitz::test
