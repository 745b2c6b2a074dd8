// Test helpers: data files and EPD parsing.
#include "tests/test_support.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace vblitz::test {

std::string data_file(const std::string& name) { return std::string(VBLITZ_TEST_DATA_DIR) + "/" + name; }

namespace {
pid_t temp_owner = 0;  // the process that made temp_dir(); a forked child must not remove it
void remove_temp_dir() {
  if (getpid() != temp_owner) return;
  std::error_code ignored;
  std::filesystem::remove_all(temp_dir(), ignored);
}
}  // namespace

const std::string& temp_dir() {
  // Never destroyed: remove_temp_dir reads it after the static objects are gone.
  static const std::string* dir = new std::string([] {
    const std::string path = ::testing::TempDir() + "vblitz-test-" + std::to_string(getpid());
    std::error_code error;
    std::filesystem::remove_all(path, error);  // a process of an earlier run with the same id
    if (!std::filesystem::create_directories(path, error))
      ADD_FAILURE() << "cannot make " << path << ": " << error.message();
    temp_owner = getpid();
    std::atexit(remove_temp_dir);
    return path;
  }());
  return *dir;
}

std::vector<PerftCase> load_perft_suite(const std::string& path) {
  std::vector<PerftCase> cases;
  std::ifstream in(path);
  if (!in) ADD_FAILURE() << "cannot read " << path;  // a missing file must not pass as an empty loop
  int line_number = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    PerftCase c;
    c.line = line_number;
    std::getline(fields, c.fen, ';');
    while (!c.fen.empty() && c.fen.back() == ' ') c.fen.pop_back();
    for (std::string op; std::getline(fields, op, ';');) {
      std::istringstream words(op);
      std::string depth_word;
      uint64_t nodes = 0;
      if (words >> depth_word >> nodes && depth_word.size() > 1 && depth_word[0] == 'D')
        c.counts.emplace_back(std::stoi(depth_word.substr(1)), nodes);
    }
    cases.push_back(c);
  }
  return cases;
}

std::vector<std::string> suite_fens() {
  std::vector<std::string> fens;
  for (const char* file : {"ethereal_standard.epd", "cpw_perft_results.epd", "ethereal_fischer.epd"})
    for (const PerftCase& c : load_perft_suite(data_file(file))) fens.push_back(c.fen);
  EXPECT_EQ(fens.size(), kSuitePositions) << "the perft suites in tests/fixtures changed or are missing";
  return fens;
}

std::string mirror_files(const std::string& fen) {
  std::stringstream fields(fen), ranks;
  std::string board, side, out;
  fields >> board >> side;
  ranks << board;
  for (std::string rank; std::getline(ranks, rank, '/');) {
    if (!out.empty()) out += '/';
    out.append(rank.rbegin(), rank.rend());
  }
  return out + " " + side + " - - 0 1";
}

}  // namespace vblitz::test
