// The UCI loop driven in-process: answers, perft output, and bad input answered with an error
// while the position stays as it was.
#include "uci/uci.h"

#include <gtest/gtest.h>

#include <sstream>

#include "simd/dispatch.h"

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

TEST(Uci, StartupNamesTheSimdTargetAndEndOfInputExitsCleanly) {
  std::string out = session("isready\n");
  EXPECT_EQ(out.rfind("info string VBlitz ", 0), 0u) << out;
  EXPECT_TRUE(contains(out, "SIMD target " + simd::active_target()));
  EXPECT_TRUE(out.size() > 9 && out.substr(out.size() - 8) == "readyok\n") << out;
}

TEST(Uci, KernelAndTargetOptionsSwitchAndRejectBadValues) {
  std::string out =
      session("uci\nsetoption name Kernels value scalar\nsetoption name simdtarget value best\n");
  EXPECT_TRUE(contains(out, "option name Kernels type combo default vector"));
  EXPECT_TRUE(contains(out, "option name SimdTarget type combo default best var best"));
  EXPECT_TRUE(contains(out, "info string kernels scalar"));
  EXPECT_EQ(simd::kernels(), simd::Kernels::kScalar);
  out = session("setoption name Kernels value fast\nsetoption name SimdTarget value mmx\n");
  EXPECT_TRUE(contains(out, "info string error: Kernels takes"));
  EXPECT_TRUE(contains(out, "info string error: SimdTarget takes one of best"));
  EXPECT_EQ(simd::kernels(), simd::Kernels::kScalar);  // unchanged by the bad values
  for (const std::string& target : simd::available_targets()) {
    out = session("setoption name SimdTarget value " + target + "\ngo perft 3\n");
    EXPECT_TRUE(contains(out, "SIMD target " + target)) << out;
    EXPECT_TRUE(contains(out, "Nodes searched: 8902")) << target;
  }
  out = session("setoption name Kernels value All-Vector\n");
  EXPECT_TRUE(contains(out, "info string kernels all-vector (vector: tt_probe slider_attacks serialize"))
      << out;
  session("setoption name Kernels value vector\nsetoption name SimdTarget value best\n");
}

}  // namespace
}  // namespace vblitz::test
