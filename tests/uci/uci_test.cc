// The UCI loop driven in-process: answers, perft output, and bad input answered with an error
// while the position stays as it was.
#include "uci/uci.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

#include "core/game.h"
#include "core/text.h"
#include "simd/dispatch.h"
#include "tests/test_support.h"
#include "tests/uci/session.h"

namespace vblitz::test {
namespace {

// Runs the lines through a fresh engine and returns everything it printed.
std::string session(const std::string& lines) {
  std::istringstream in(lines);
  std::ostringstream out;
  EXPECT_EQ(uci::run_loop(in, out), 0);
  return out.str();
}

TEST(Uci, HandshakeAndReady) {
  std::string out = session("uci\nisready\nquit\n");
  EXPECT_TRUE(contains(out, "id name VBlitz"));
  EXPECT_TRUE(contains(out, "\nuciok\n"));
  EXPECT_TRUE(contains(out, "\nreadyok\n"));
}

// searchmoves runs to the next keyword: `depth 2` after it limits the search (it was read as two
// illegal moves), `infinite` after it waits for stop, and a repeated move counts once (MultiPV 2
// printed an empty second line for it).
TEST(Uci, SearchmovesEndsAtTheNextKeyword) {
  const std::string limited = waiting_session({"position startpos", "go searchmoves e2e4 d2d4 depth 2"});
  EXPECT_FALSE(contains(limited, "error")) << limited;
  EXPECT_TRUE(contains(limited, "info depth 2 ")) << limited;
  EXPECT_FALSE(contains(limited, "info depth 3 ")) << limited;
  EXPECT_TRUE(contains(limited, "bestmove e2e4") || contains(limited, "bestmove d2d4")) << limited;

  std::ostringstream out;
  {
    uci::Engine engine(out);
    engine.handle("position startpos");
    engine.handle("go searchmoves e2e4 infinite");
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    EXPECT_FALSE(contains(out.str(), "bestmove")) << out.str();
    engine.handle("stop");
    EXPECT_TRUE(contains(out.str(), "bestmove e2e4")) << out.str();
  }

  const std::string repeated = waiting_session(
      {"setoption name MultiPV value 2", "position startpos", "go depth 4 searchmoves e2e4 e2e4"});
  EXPECT_FALSE(contains(repeated, "multipv 2")) << repeated;
  std::istringstream lines(repeated);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("info depth", 0) == 0) {
      EXPECT_TRUE(contains(line, " pv e2e4")) << line;
    }
}

TEST(Uci, GoPerftPrintsBreakdownAndTotal) {
  std::string out = session("position startpos moves e2e4\ngo perft 2\n");
  EXPECT_TRUE(contains(out, "e7e5: 29\n"));
  EXPECT_TRUE(contains(out, "Nodes searched: 600\n"));
}

// With Threads 3 the count runs on three threads and prints the same breakdown and total.
TEST(Uci, GoPerftOnSeveralThreadsCountsTheSame) {
  const std::string one = session("position startpos moves e2e4\ngo perft 4\n");
  const std::string three =
      session("setoption name Threads value 3\nposition startpos moves e2e4\ngo perft 4\n");
  EXPECT_TRUE(contains(three, "Nodes searched: 405385\n")) << three;
  EXPECT_EQ(one.substr(one.find("\n") + 1, one.find("Nodes searched") - one.find("\n")),
            three.substr(three.find("\n") + 1, three.find("Nodes searched") - three.find("\n")));
}

TEST(Uci, Chess960CastlingMovesAreKingTakesRook) {
  std::string out = session(
      "setoption name UCI_Chess960 value true\n"
      "position fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\ngo perft 1\n");
  EXPECT_TRUE(contains(out, "Nodes searched: 21\n"));
}

TEST(Uci, BadInputGetsAnErrorAndKeepsThePosition) {
  // 1.e4 e5 2.Nf3 leaves Black 29 moves; the start position (and 1.e4) would give 20.
  const std::string setup = "position startpos moves e2e4 e7e5 g1f3\n";
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
    EXPECT_TRUE(contains(out, "Nodes searched: 29\n")) << "position lost after: " << bad << out;
  }
}

// What a message refuses is quoted with at most 80 characters, printable only: before, an
// illegal 1 MB move was echoed whole and a binary SearchParamFile with its NUL bytes.
TEST(Uci, ErrorsQuoteAtMostEightyPrintableCharactersOfTheInput) {
  const std::string huge(1000000, 'e'), binary_token("a\x01\x7f\xff\x1b[2Jb", 9);
  const std::string binary_file = temp_dir() + "/binary.params";
  {
    std::ofstream out(binary_file, std::ios::binary);
    for (int i = 0; i < 1000; ++i) out << std::string("\0\x01\xfe", 3) << huge.substr(0, 100);
    out << '\n';
  }
  const std::string lines[] = {
      "position startpos moves " + huge,
      "position startpos moves e2e4 " + binary_token,
      "position fen " + huge,
      "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR " + binary_token + " KQkq - 0 1",
      "position " + huge,
      huge,
      binary_token,
      "setoption name " + huge + " value 1",
      "setoption name Hash value " + huge,
      "setoption name UCI_Chess960 value " + binary_token,
      "setoption name SearchParamFile value " + binary_file,
      "setoption name ParamFile value " + binary_file,
      "setoption name SearchParamFile value " + temp_dir() + "/" + huge.substr(0, 5000),
      "go searchmoves " + huge + " depth 1",
      "go wtime " + huge,
      "go " + binary_token + " depth 1",
  };
  for (const std::string& line : lines) {
    std::string out = waiting_session({line, "isready"});
    EXPECT_TRUE(contains(out, "info string error: ")) << line.substr(0, 80) << "\n" << out.substr(0, 2000);
    std::istringstream printed(out);
    for (std::string l; std::getline(printed, l);) {
      EXPECT_LE(l.size(), 300u) << line.substr(0, 80) << ": " << l.substr(0, 300);
      EXPECT_TRUE(std::all_of(l.begin(), l.end(), [](char c) { return c >= 0x20 && c < 0x7f; }))
          << line.substr(0, 80) << ": " << core::quote(l, 300);
    }
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
  EXPECT_EQ(simd::kernels(), simd::Kernels::kVector);  // the engine's own: the process's is unchanged
  out = session(
      "setoption name Kernels value scalar\nsetoption name Kernels value fast\nsetoption name SimdTarget "
      "value "
      "mmx\nsetoption name SimdTarget value best\n");
  EXPECT_TRUE(contains(out, "info string error: Kernels takes"));
  EXPECT_TRUE(contains(out, "info string error: SimdTarget takes best, "));
  // Unchanged by the bad values: the last line still names the scalar kernels.
  EXPECT_TRUE(contains(out.substr(out.rfind("info string kernels")), "info string kernels scalar")) << out;
  for (const std::string& target : simd::available_targets()) {
    out = session("setoption name SimdTarget value " + target + "\ngo perft 3\n");
    EXPECT_TRUE(contains(out, "SIMD target " + target)) << out;
    EXPECT_TRUE(contains(out, "Nodes searched: 8902")) << target;
  }
  out = session("setoption name Kernels value All-Vector\n");
  EXPECT_TRUE(contains(out, "info string kernels all-vector (vector: tt_probe slider_attacks serialize"))
      << out;
  EXPECT_EQ(simd::kernels(), simd::Kernels::kVector);
}

TEST(UciSearch, GoDepthAnswersWithALegalBestMove) {
  std::string out = waiting_session({"position startpos moves e2e4", "go depth 5"});
  size_t at = out.find("bestmove ");
  ASSERT_NE(at, std::string::npos) << out;
  EXPECT_TRUE(contains(out, "info depth 5 "));
  core::Game game;
  ASSERT_FALSE(game.play({"e2e4"}));
  std::string move = out.substr(at + 9, out.find_first_of(" \n", at + 9) - at - 9);
  EXPECT_NE(game.position().parse_uci(move), core::Move::none()) << move;
}

TEST(UciSearch, InfiniteSearchWaitsForStopAndStaysResponsive) {
  std::string out = session("go infinite\nisready\nstop\n");
  size_t ready = out.find("readyok"), best = out.find("bestmove ");
  ASSERT_NE(ready, std::string::npos);
  ASSERT_NE(best, std::string::npos);
  EXPECT_LT(ready, best);
}

// `stop` answers at once from the threads' published results (Engine::answer_stop), the search
// thread finishing behind it: still exactly one bestmove, legal, after a last info line that
// starts with it, and nothing of the search after it, however early the stop comes.
TEST(UciSearch, StopIsAnsweredOnceWithNothingAfterIt) {
  for (int threads : {1, 8}) {
    for (int wait_ms : {0, 1, 5, 20, 60, 150}) {
      std::ostringstream out;
      {
        uci::Engine engine(out);
        engine.handle("setoption name Threads value " + std::to_string(threads));
        engine.handle("position startpos moves e2e4");
        engine.handle("go infinite");
        std::this_thread::sleep_for(std::chrono::milliseconds(wait_ms));
        engine.handle("stop");
        engine.handle("isready");
      }
      std::istringstream lines(out.str());
      std::vector<std::string> all;
      for (std::string line; std::getline(lines, line);) all.push_back(line);
      const std::string where =
          std::to_string(threads) + " threads, stop after " + std::to_string(wait_ms) + " ms:\n" + out.str();
      ASSERT_GE(all.size(), 2u) << where;
      EXPECT_EQ(all.back(), "readyok") << where;
      const std::string& best = all[all.size() - 2];
      ASSERT_EQ(best.rfind("bestmove ", 0), 0u) << where;
      EXPECT_EQ(std::count_if(all.begin(), all.end(),
                              [](const std::string& l) { return l.rfind("bestmove", 0) == 0; }),
                1)
          << where;
      const std::string move = best.substr(9, best.find(' ', 9) - 9);
      core::Game game;
      ASSERT_FALSE(game.set_fen(core::Position::kStartFen));
      ASSERT_FALSE(game.play({"e2e4"}));
      EXPECT_NE(game.position().parse_uci(move), core::Move::none()) << where;
      std::string last_pv;
      for (const std::string& l : all)
        if (l.find(" pv ") != std::string::npos) last_pv = l.substr(l.find(" pv ") + 4);
      if (!last_pv.empty()) {
        EXPECT_EQ(last_pv.rfind(move, 0), 0u) << where;
      }
    }
  }
}

// A stop or a clock that runs out before the first iteration completes still gets a move that
// sees the board: depth 1's if it completed, else search::quick_move's. Here the first legal
// move, a2a3, leaves the queen that Nxf3 wins on the board (before depth 1 was required, and
// before that a stop at once, `go movetime 1` and `go wtime 1` answered a2a3).
TEST(UciSearch, AnEarlyStopOrATinyClockStillTakesAHangingQueen) {
  const std::string fen = "position fen 4k3/8/8/8/8/5q2/P7/4K1N1 w - - 0 1";
  for (int threads : {1, 8}) {
    const std::string setting = "setoption name Threads value " + std::to_string(threads);
    for (const char* go : {"go movetime 1", "go wtime 1 btime 1", "go wtime 0 btime 5000",
                           "go searchmoves a2a3 g1f3 movetime 1"}) {
      const std::string out = waiting_session({setting, fen, go});
      EXPECT_TRUE(contains(out, "bestmove g1f3")) << threads << " threads, " << go << ":\n" << out;
    }
    for (const char* go : {"go infinite", "go ponder", "go depth 30"}) {
      std::ostringstream out;
      {
        uci::Engine engine(out);
        engine.handle(setting);
        engine.handle(fen);
        engine.handle(go);
        engine.handle("stop");
        engine.handle("isready");
      }
      EXPECT_TRUE(contains(out.str(), "bestmove g1f3")) << threads << " threads, " << go << ":\n"
                                                        << out.str();
      EXPECT_EQ(out.str().find("bestmove"), out.str().rfind("bestmove")) << out.str();
    }
  }
  // Only the move allowed: the answer stays inside searchmoves.
  EXPECT_TRUE(contains(waiting_session({fen, "go searchmoves a2a3 movetime 1"}), "bestmove a2a3"));
  // A node limit too small for depth 1 (0 counts as 1) on any thread count.
  for (const char* threads : {"1", "3"})
    for (const char* go : {"go nodes 1", "go nodes 0", "go nodes 20"}) {
      const std::string out =
          waiting_session({std::string("setoption name Threads value ") + threads, fen, go});
      EXPECT_TRUE(contains(out, "bestmove g1f3")) << threads << " threads, " << go << ":\n" << out;
    }
}

// A stop (or the clock's guard) that comes before the search thread has started answers from
// this search, never with the last search's move: found by the soak, where a bullet game was
// lost to `bestmove e6e5` repeated from the move before (the threads' published results were
// reset only once the search thread ran). Each round: a search in one position, then `go` in
// another where its move is illegal, and `stop` at once.
TEST(UciSearch, AStopRightAfterGoNeverAnswersTheLastSearchsMove) {
  for (const char* threads : {"1", "3"}) {
    std::ostringstream out;
    {
      uci::Engine engine(out);
      engine.handle(std::string("setoption name Threads value ") + threads);
      for (int round = 0; round < 40; ++round) {
        engine.handle("position startpos moves e2e4");
        engine.handle("go depth 4");
        engine.wait_for_search();
        engine.handle("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1 f8c5 d2d3");
        engine.handle("go infinite");
        engine.handle("stop");
      }
      engine.handle("isready");
    }
    core::Game before, after;
    ASSERT_FALSE(before.play({"e2e4"}));
    ASSERT_FALSE(after.play({"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1", "f8c5", "d2d3"}));
    std::istringstream lines(out.str());
    int answers = 0;
    for (std::string line; std::getline(lines, line);) {
      if (line.rfind("bestmove ", 0) != 0) continue;
      const std::string move = line.substr(9, line.find(' ', 9) - 9);
      const core::Game& game = answers++ % 2 == 0 ? before : after;
      EXPECT_NE(game.position().parse_uci(move), core::Move::none())
          << threads << " threads, answer " << answers << ": " << line;
    }
    EXPECT_EQ(answers, 80) << threads << " threads";
  }
}

TEST(UciSearch, CheckmatedOrStalematedRootAnswersNone) {
  EXPECT_TRUE(contains(session("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1 moves a1a8\ngo depth 3\n"),
                       "bestmove (none)"));
  EXPECT_TRUE(
      contains(session("position fen 8/8/8/8/8/6k1/6p1/6K1 w - - 0 1\ngo movetime 50\n"), "bestmove (none)"));
}

TEST(UciSearch, MateScoreIsReportedInMoves) {
  std::string out = waiting_session({"position fen kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", "go depth 6"});
  EXPECT_TRUE(contains(out, "score mate 2 ")) << out;
  EXPECT_TRUE(contains(out, "bestmove a1a6"));
}

// Every `go` a GUI can send gets exactly one legal bestmove: out-of-range clock fields are
// clamped and searched with, malformed ones reported and ignored, a missing clock for the side
// to move replaced by the other side's. (Before: `go wtime -100` was refused and never answered.)
TEST(UciSearch, EveryGoIsAnsweredWithOneLegalBestmove) {
  struct Case {
    const char* position;
    const char* go;
    bool error;
  };
  const Case cases[] = {
      {"position startpos", "go wtime -100 btime 1000", false},
      {"position startpos", "go wtime 0 btime 0", false},
      {"position startpos", "go wtime 50 btime 50 movestogo 0", false},
      {"position startpos", "go wtime -5 winc -10", false},
      {"position startpos", "go wtime 99999999999999999999999 btime 1 movestogo 999999999 depth 3", false},
      {"position startpos", "go depth 0", false},
      {"position startpos", "go movetime 0", false},
      {"position startpos", "go movetime -3", false},
      {"position startpos", "go nodes 0", false},
      {"position startpos", "go nodes -7", false},
      {"position startpos", "go mate 0 movetime 200", false},
      {"position startpos moves e2e4", "go wtime 300", false},
      {"position startpos", "go nodes lots", true},
      {"position startpos", "go movetime", true},
      {"position startpos", "go sideways 3 depth 2", true},
      {"position startpos", "go searchmoves e2e5", true},
      {"position startpos", "go depth x movetime 30", true},
      {"position startpos", "go wtime 1e3 btime 1000", true},
  };
  for (const Case& c : cases) {
    const std::string out = waiting_session({c.position, c.go});
    size_t answers = 0;
    for (size_t at = out.find("bestmove "); at != std::string::npos; at = out.find("bestmove ", at + 1))
      ++answers;
    ASSERT_EQ(answers, 1u) << c.go << "\n" << out;
    const size_t at = out.find("bestmove ") + 9;
    const std::string move = out.substr(at, out.find_first_of(" \n", at) - at);
    core::Game game;
    if (contains(c.position, "e2e4")) {
      ASSERT_FALSE(game.play({"e2e4"}));
    }
    EXPECT_NE(game.position().parse_uci(move), core::Move::none()) << c.go << ": " << move;
    EXPECT_EQ(contains(out, "info string error: "), c.error) << c.go << "\n" << out;
  }
}

// A Hash larger than the machine's memory is refused before anything is allocated (with
// overcommit it would be granted and the OOM killer would end the engine while clearing it).
TEST(Uci, HashBeyondTheMachinesMemoryIsRefusedAndTheTableKept) {
  if (search::physical_memory_megabytes() > 65536) GTEST_SKIP() << "this machine has 64 GB or more";
  const std::string out = waiting_session(
      {"setoption name Hash value 32", "setoption name Hash value 65536", "position startpos", "go depth 3"});
  EXPECT_TRUE(contains(out, "info string error: could not allocate 65536 MB (this machine has ")) << out;
  EXPECT_TRUE(contains(out, "Hash stays 32")) << out;
  EXPECT_TRUE(contains(out, "bestmove ")) << out;
}

// Toggling UCI_Chess960 keeps the game's history: after 1.Nf3 Nf6 2.Ng1 Ng8 3.Nf3 Nf6 4.Ng1,
// 4...Ng8 repeats the start position a third time and scores as a draw, before and after the
// toggle. (Before, the toggle rebuilt the game from its FEN and lost the repetition: -51.)
TEST(UciSearch, ToggleChess960KeepsTheHistoryForRepetitions) {
  const std::string position = "position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1";
  for (const char* toggle :
       {"setoption name UCI_Chess960 value false", "setoption name UCI_Chess960 value true"}) {
    const std::string out = waiting_session({position, toggle, "go depth 6 searchmoves f6g8"});
    const size_t last = out.rfind("info depth 6 ");
    ASSERT_NE(last, std::string::npos) << out;
    EXPECT_TRUE(contains(out.substr(last, out.find('\n', last) - last), " score cp 0 ")) << toggle << "\n"
                                                                                         << out;
    EXPECT_TRUE(contains(out, "bestmove f6g8")) << out;
  }
}

// A halfmove clock above 255 is kept (it was a byte and wrapped), grows with quiet moves, and
// the fifty-move rule still applies.
TEST(Uci, LongHalfmoveClocksAreKept) {
  const std::string out =
      waiting_session({"position fen 8/8/8/4k3/8/8/8/4K2R w K - 300 200 moves h1h2", "d"});
  EXPECT_TRUE(contains(out, "Fen: 8/8/8/4k3/8/8/7R/4K3 b - - 301 200")) << out;
}

TEST(UciSearch, BenchPrintsTheParsedTotals) {
  std::string out = session("bench 3\n");
  EXPECT_TRUE(contains(out, "Nodes searched: "));
  EXPECT_TRUE(contains(out, "Nodes/second: "));
  EXPECT_TRUE(contains(out, "position 43/43"));
}

std::string final_eval(const std::string& out) {
  size_t at = out.rfind("Final evaluation: ");
  return at == std::string::npos ? "" : out.substr(at, out.find('\n', at) - at);
}

TEST(UciEval, StyleOptionsAndParamFileChangeTheEvaluation) {
  // Styles and parameters are the classic evaluation's: its final line is the one compared.
  const std::string position =
      "setoption name EvalMode value classic\n"
      "position fen r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8\n";
  const std::string base = final_eval(session(position + "eval\n"));
  ASSERT_FALSE(base.empty());
  EXPECT_NE(final_eval(session("setoption name Mobility value 0\n" + position + "eval\n")), base);
  EXPECT_EQ(final_eval(session("setoption name Mobility value 100\n" + position + "eval\n")), base);

  const std::string path = temp_dir() + "/vblitz_params.txt";
  {
    std::ofstream f(path);
    f << "bishop_pair 99 99\n";
  }
  std::string out = session("setoption name ParamFile value " + path + "\n" + position + "eval\n");
  EXPECT_TRUE(contains(out, "info string parameters from " + path)) << out;
  EXPECT_NE(final_eval(out), base);
  {
    std::ofstream f(path);
    f << "bishop_pair 99 99\nbogus_term 1 1\n";
  }
  out = session("setoption name ParamFile value " + path + "\n" + position + "eval\n");
  EXPECT_TRUE(
      contains(out, "info string error: ParamFile '" + path + "': line 2: unknown parameter 'bogus_term'"))
      << out;
  EXPECT_EQ(final_eval(out), base);  // the old (default) values are kept
  session("setoption name ParamFile value <empty>\n");
}

// The nodes of the last `info depth D` line of a session's output.
std::string nodes_at_depth(const std::string& out, int depth) {
  const std::string key = "info depth " + std::to_string(depth) + " ";
  std::string nodes;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(key, 0) != 0 || line.find(" pv ") == std::string::npos) continue;
    const size_t at = line.find(" nodes ");
    if (at != std::string::npos) nodes = line.substr(at + 7, line.find(' ', at + 7) - at - 7);
  }
  return nodes;
}

TEST(UciSearch, SearchParamFileChangesTheSearchAndBadFilesChangeNothing) {
  const std::vector<std::string> go = {"position startpos moves e2e4 e7e5 g1f3", "go depth 9"};
  const std::string base = nodes_at_depth(waiting_session(go), 9);
  ASSERT_FALSE(base.empty());
  const std::string path = temp_dir() + "/vblitz_search_params.txt";
  std::ofstream(path) << "# tuned\nnull_move_min_depth 5\nfutility_margin 120\n";
  std::vector<std::string> lines = {"setoption name SearchParamFile value " + path};
  lines.insert(lines.end(), go.begin(), go.end());
  std::string out = waiting_session(lines);
  EXPECT_TRUE(contains(out, "info string search parameters from " + path)) << out;
  const std::string tuned = nodes_at_depth(out, 9);
  EXPECT_NE(tuned, base);

  // A bad file after a good one: an error naming the line, and the good file's values stay.
  const std::string bad = temp_dir() + "/vblitz_search_params_bad.txt";
  std::ofstream(bad) << "futility_margin 130\nnull_move_min_depth 99\n";
  lines.insert(lines.begin() + 1, "setoption name SearchParamFile value " + bad);
  out = waiting_session(lines);
  EXPECT_TRUE(contains(out, "info string error: SearchParamFile '" + bad +
                                "': line 2: null_move_min_depth 99 is "
                                "outside 2..5"))
      << out;
  EXPECT_EQ(nodes_at_depth(out, 9), tuned);

  // <empty> brings the defaults back (a new game: the first search's table would help).
  lines.push_back("setoption name SearchParamFile value <empty>");
  lines.push_back("ucinewgame");
  lines.insert(lines.end(), go.begin(), go.end());
  out = waiting_session(lines);
  EXPECT_TRUE(contains(out, "info string search parameters default")) << out;
  EXPECT_EQ(nodes_at_depth(out, 9), base);
}

TEST(UciSearch, MultiPvReportsDistinctLinesAndWdlSumsToAThousand) {
  std::string out =
      waiting_session({"setoption name MultiPV value 3", "setoption name UCI_ShowWDL value true",
                       "position startpos", "go depth 5"});
  std::set<std::string> first_moves;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("info depth 5 ", 0) != 0) continue;
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string x; words >> x;) w.push_back(x);
    auto at = std::find(w.begin(), w.end(), "wdl");
    ASSERT_NE(at, w.end()) << line;
    EXPECT_EQ(std::stoi(at[1]) + std::stoi(at[2]) + std::stoi(at[3]), 1000) << line;
    first_moves.insert(*(std::find(w.begin(), w.end(), "pv") + 1));
  }
  EXPECT_EQ(first_moves.size(), 3u) << out;
  EXPECT_TRUE(contains(out, "multipv 3"));
}

TEST(UciSearch, ThreadsCanChangeBetweenSearchesAndStopStaysQuick) {
  std::string out =
      waiting_session({"setoption name Threads value 2", "go depth 6", "setoption name Threads value 1",
                       "go depth 5", "setoption name Threads value 3", "go depth 5"});
  size_t count = 0;
  for (size_t at = out.find("bestmove "); at != std::string::npos; at = out.find("bestmove ", at + 1))
    ++count;
  EXPECT_EQ(count, 3u) << out;
  out =
      session("setoption name Threads value 2\ngo infinite\nisready\nstop\nsetoption name Threads value 0\n");
  EXPECT_TRUE(contains(out, "bestmove "));
  EXPECT_TRUE(contains(out, "info string error: Threads takes a number from 1 to 1024"));
}

}  // namespace
}  // namespace vblitz::test
