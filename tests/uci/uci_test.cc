// The UCI loop driven in-process: answers, perft output, and bad input answered with an error
// while the position stays as it was.
#include "uci/uci.h"

#include <gtest/gtest.h>

#include <sstream>

namespace vblitz::test {
namespace {

// Runs the lines through a fresh engine and returns everything it printed.
std::string session(const std::string& lines) {
  std::istringstream in(lines);
  std::ostringstream out;
  EXPECT_EQ(uci::run_loop(in, out), 0);
  return out.str();
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(Uci, HandshakeAndReady) {
  std::string out = session("uci\nisready\nquit\n");
  EXPECT_TRUE(contains(out, "id name VBlitz"));
  EXPECT_TRUE(contains(out, "\nuciok\n"));
  EXPECT_TRUE(contains(out, "\nreadyok\n"));
}

TEST(Uci, GoPerftPrintsBreakdownAndTotal) {
  std::string out = session("position startpos moves e2e4\ngo perft 2\n");
  EXPECT_TRUE(contains(out, "e7e5: 29\n"));
  EXPECT_TRUE(contains(out, "Nodes searched: 600\n"));
}

TEST(Uci, Chess960CastlingMovesAreKingTakesRook) {
  std::string out = session(
      "setoption name UCI_Chess960 value true\n"
      "position fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\ngo perft 1\n");
  EXPECT_TRUE(contains(out, "Nodes searched: 21\n"));
}

TEST(Uci, BadInputGetsAnErrorAndKeepsThePosition) {
  const std::string setup = "position startpos moves e2e4\n";
  const char* bad_lines[] = {
      "frobnicate\n",
      "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1\n",
      "position startpos moves e7e5 e2e5\n",
      "position sideways\n",
      "go perft -1\n",
      "go perft many\n",
      "setoption name NoSuchOption value 3\n",
      "setoption name UCI_Chess960 value maybe\n",
      "perft\n",
  };
  for (const char* bad : bad_lines) {
    std::string out = session(setup + bad + "go perft 1\n");
    EXPECT_TRUE(contains(out, "info string error: ")) << bad << out;
    EXPECT_TRUE(contains(out, "Nodes searched: 20\n")) << "position lost after: " << bad << out;
  }
}

TEST(Uci, EndOfInputExitsCleanly) { EXPECT_EQ(session("isready\n"), "readyok\n"); }

}  // namespace
}  // namespace vblitz::test
