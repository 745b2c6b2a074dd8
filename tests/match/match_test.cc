// The match runner: its statistics against fastchess's published figures, the command line,
// and real games (the vblitz binary on both sides, and stand-in engines that crash, hang, play
// illegal moves or run out of time) checked move by move against core's rules.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <thread>

#include "book/pgn.h"
#include "core/game.h"
#include "core/movegen.h"
#include "match/runner.h"
#include "match/stats.h"
#include "tests/test_support.h"
#include "tests/uci/child_process.h"

namespace vblitz::match {
namespace {

// fastchess's summaries of five matches recorded in this project (pentanomial, Elo, interval).
TEST(MatchStats, EloAndIntervalAreFastchesssForItsPentanomialCounts) {
  struct Case {
    Pentanomial pairs;
    double elo, error;
  };
  const Case cases[] = {{{19, 86, 171, 94, 30}, 13.0, 16.5},
                        {{0, 21, 49, 27, 3}, 20.9, 26.2},
                        {{27, 92, 159, 97, 25}, 0.4, 17.0},
                        {{27, 43, 24, 4, 2}, -166.0, 39.0},
                        {{49, 191, 309, 194, 57}, 4.1, 12.1}};
  for (const Case& c : cases) {
    const MatchNumbers m = match_numbers(c.pairs);
    EXPECT_NEAR(m.elo, c.elo, 0.5) << c.pairs[0] << " " << c.pairs[1] << " " << c.pairs[2];
    EXPECT_NEAR(m.elo_error, c.error, 0.5) << c.pairs[0] << " " << c.pairs[1] << " " << c.pairs[2];
  }
  EXPECT_NEAR(score_of_elo(elo_of_score(0.6)), 0.6, 1e-12);
  EXPECT_NEAR(elo_of_score(0.75), 190.85, 0.01);
}

TEST(MatchStats, SprtCrossesItsBoundsOnClearResultsOnly) {
  EXPECT_NEAR(sprt_lower_bound(0.05, 0.05), -2.944, 0.001);
  EXPECT_NEAR(sprt_upper_bound(0.05, 0.05), 2.944, 0.001);
  // Far better than elo1: accepted; far worse than elo0: rejected; in between: undecided.
  EXPECT_GT(sprt_llr({10, 40, 80, 120, 60}, 0, 5), 2.944);
  EXPECT_LT(sprt_llr({60, 120, 80, 40, 10}, 0, 5), -2.944);
  EXPECT_NEAR(sprt_llr({10, 20, 40, 20, 10}, -5, 5), 0.0, 1e-9);  // the midpoint score: no evidence
}

MatchOptions parsed(const std::vector<std::string>& args) {
  MatchOptions o;
  const auto error = parse_arguments(args, o);
  EXPECT_FALSE(error) << *error;
  return o;
}

std::optional<std::string> refused(const std::vector<std::string>& args) {
  MatchOptions o;
  return parse_arguments(args, o);
}

TEST(MatchArguments, ReadsFastchesssFormAndRefusesWhatItDoesNotPlay) {
  const MatchOptions o = parsed({"-engine",
                                 "cmd=/bin/a",
                                 "name=new",
                                 "option.EvalFile=/x y.nnue",
                                 "-engine",
                                 "cmd=/bin/b",
                                 "name=old",
                                 "-each",
                                 "tc=10+0.1",
                                 "proto=uci",
                                 "option.Threads=1",
                                 "option.Hash=64",
                                 "ponder",
                                 "-openings",
                                 "file=o.epd",
                                 "format=epd",
                                 "order=random",
                                 "-rounds",
                                 "100",
                                 "-games",
                                 "2",
                                 "-repeat",
                                 "-concurrency",
                                 "2",
                                 "-recover",
                                 "-srand",
                                 "93",
                                 "-draw",
                                 "movenumber=40",
                                 "movecount=8",
                                 "score=10",
                                 "-resign",
                                 "movecount=4",
                                 "score=800",
                                 "twosided=true",
                                 "-sprt",
                                 "elo0=0",
                                 "elo1=5",
                                 "alpha=0.05",
                                 "beta=0.05",
                                 "-pgnout",
                                 "file=g.pgn"});
  EXPECT_EQ(o.engines[0].name, "new");
  EXPECT_EQ(o.engines[1].cmd, "/bin/b");
  ASSERT_EQ(o.engines[0].options.size(), 3u);
  EXPECT_EQ(o.engines[0].options[0].second, "/x y.nnue");
  EXPECT_TRUE(o.limits[1].clock);
  EXPECT_EQ(o.limits[1].base_ms, 10000);
  EXPECT_EQ(o.limits[1].increment_ms, 100);
  EXPECT_EQ(o.rounds, 100);
  EXPECT_EQ(o.seed, 93u);
  EXPECT_TRUE(o.repeat && o.recover && o.random_order);
  EXPECT_EQ(o.adjudication.draw_move_number, 40);
  EXPECT_EQ(o.adjudication.resign_score, 800);
  EXPECT_TRUE(o.adjudication.resign_two_sided);
  ASSERT_TRUE(o.sprt);
  EXPECT_EQ(o.sprt->elo1, 5);
  EXPECT_EQ(o.pgn_file, "g.pgn");
  EXPECT_TRUE(o.engines[0].ponder && o.engines[1].ponder);  // cutechess's bare `ponder`, from -each
  const std::vector<std::string> two = {"-engine", "cmd=a", "-engine", "cmd=b", "-openings", "file=o.epd"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> all = two;
    all.insert(all.end(), extra.begin(), extra.end());
    return all;
  };
  EXPECT_FALSE(refused(with({"-each", "nodes=1000"})));
  for (const auto& bad : std::vector<std::vector<std::string>>{
           {"-each", "nodes=1000", "-rounds", "x"},
           {"-each", "nodes=0"},
           {"-each", "tc=40/60"},
           {"-each", "tc=-1"},
           {"-each", "nodes=10", "proto=xboard"},  // an xboard engine has no node limit
           {"-each", "tc=1+0.1", "proto=xboard", "ponder"},
           {"-each", "nodes=10", "proto=cecp"},
           {"-each", "nodes=10", "-sprt", "elo0=5", "elo1=0"},
           {"-each", "nodes=10", "-repeat"},
           {"-each", "nodes=10", "-frobnicate"},
           {"-each", "nodes=10", "bogus"},
           {"-each", "nodes=10", "ponder=maybe"},
           {},  // no limit
       })
    EXPECT_TRUE(refused(with(bad))) << (bad.empty() ? "no limit" : bad.back());
  EXPECT_TRUE(refused({"-engine", "cmd=a", "-each", "nodes=5", "-openings", "file=o.epd"}));  // one engine
  // Each arg= adds an argument, in order (polyglot -noini -ec ENGINE).
  const MatchOptions with_args =
      parsed({"-engine", "cmd=/usr/games/polyglot", "arg=-noini", "arg=-ec", "arg=/e", "-engine", "cmd=b",
              "-each", "nodes=10", "-openings", "file=o.epd"});
  EXPECT_EQ(with_args.engines[0].args, (std::vector<std::string>{"-noini", "-ec", "/e"}));
  // -engine's setting comes before -each's.
  const MatchOptions one_ponders = parsed({"-engine", "cmd=a", "ponder=false", "-engine", "cmd=b", "-each",
                                           "nodes=10", "ponder", "-openings", "file=o.epd"});
  EXPECT_FALSE(one_ponders.engines[0].ponder);
  EXPECT_TRUE(one_ponders.engines[1].ponder);
}

TEST(MatchOpenings, EpdAndFenLinesAreReadAndBadOnesNamed) {
  const std::string path = test::temp_dir() + "/openings.epd";
  std::ofstream(path) << "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - ;c0 \"e4\"\n\n"
                         "8/8/8/8/8/5k2/8/4K3 w - - 12 40\n";
  std::vector<std::string> fens;
  ASSERT_FALSE(read_openings(path, fens));
  ASSERT_EQ(fens.size(), 2u);
  EXPECT_EQ(fens[0], "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  EXPECT_EQ(fens[1], "8/8/8/8/8/5k2/8/4K3 w - - 12 40");
  std::ofstream(path) << "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\nnot a fen at all\n";
  fens.clear();
  const auto error = read_openings(path, fens);
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("line 2"), std::string::npos) << *error;
}

// A stand-in engine in the shell: answers the handshake, and on `go` does what `on_go` says.
std::string stand_in(const std::string& name, const std::string& on_go) {
  const std::string path = test::temp_dir() + "/" + name;
  std::ofstream(path) << "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n"
                         "    uci) echo 'id name "
                      << name
                      << "'; echo uciok ;;\n"
                         "    isready) echo readyok ;;\n"
                         "    go*) "
                      << on_go
                      << " ;;\n"
                         "    quit) exit 0 ;;\n  esac\ndone\n";
  chmod(path.c_str(), 0755);
  return path;
}

std::string openings_file() {
  const std::string path = test::temp_dir() + "/match_openings.epd";
  std::ofstream(path) << "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n"
                         "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -\n"
                         "rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq -\n";
  return path;
}

// The start position alone, for stand-ins that play set moves from it.
std::string start_position_file() {
  const std::string path = test::temp_dir() + "/start_position.epd";
  std::ofstream(path) << "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n";
  return path;
}

// The games of a PGN, each replayed with core's rules: every move legal, and the last position
// agrees with the termination the runner gave.
void check_games(const std::string& pgn_path, int expected_games) {
  std::ifstream in(pgn_path);
  book::PgnReader reader(in);
  int games = 0;
  book::PgnGame game;
  for (std::string reason; reader.next(game, reason) != book::PgnReader::Status::kEnd;) {
    ASSERT_TRUE(reason.empty()) << reason;
    ++games;
    std::vector<std::string> moves;
    const auto error =
        book::replay(game, [&](const core::Position& pos, core::Move m, int, bool main_line, int) {
          if (main_line) moves.push_back(pos.to_uci(m));
        });
    ASSERT_FALSE(error) << *error;
    core::Game played;
    ASSERT_FALSE(played.set_fen(game.tag("FEN").empty() ? core::Position::kStartFen : game.tag("FEN")));
    ASSERT_FALSE(played.play(moves));
    const core::Position& last = played.position();
    const int plies = int(moves.size());
    const std::string termination = game.tag("TerminationDetails"), result = game.result;
    EXPECT_EQ(game.tag("Termination"),
              termination.find("adjudicated") != std::string::npos ? "adjudication" : "normal");
    EXPECT_EQ(game.tag("PlyCount"), std::to_string(moves.size()));
    EXPECT_EQ(game.tag("Result"), result);
    if (termination.find("mates") != std::string::npos) {
      EXPECT_TRUE(last.in_check() && core::MoveList<core::LEGAL>(last).size() == 0) << termination;
      EXPECT_EQ(result, last.side_to_move() == core::WHITE ? "0-1" : "1-0");
    } else if (termination == "stalemate") {
      EXPECT_TRUE(!last.in_check() && core::MoveList<core::LEGAL>(last).size() == 0);
    } else if (termination == "insufficient material") {
      EXPECT_TRUE(last.has_insufficient_material());
      EXPECT_EQ(result, "1/2-1/2");
    } else if (termination == "fifty-move rule" || termination == "threefold repetition") {
      EXPECT_TRUE(last.is_draw(0)) << termination;
    } else {
      EXPECT_TRUE(termination == "adjudicated draw" || termination.find("resigns") != std::string::npos)
          << termination;
      EXPECT_FALSE(last.is_draw(0)) << termination;
    }
    EXPECT_GT(plies, 0) << termination;
  }
  EXPECT_EQ(games, expected_games);
}

MatchOptions two_engines(const std::string& a, const std::string& b) {
  MatchOptions o;
  o.engines[0].cmd = a;
  o.engines[0].name = "first";
  o.engines[1].cmd = b;
  o.engines[1].name = "second";
  o.openings_file = openings_file();
  o.games_per_round = 2;
  o.repeat = true;
  o.rating_interval = 0;
  return o;
}

// The engine against itself at 1,000 nodes a move: whole games by the rules, both colours of
// each opening, the same openings in the same order for the same seed.
TEST(MatchGames, TheEngineAgainstItselfPlaysWholeLegalGames) {
  MatchOptions o = two_engines(VBLITZ_BINARY, VBLITZ_BINARY);
  for (Limit& l : o.limits) l.nodes = 1000;
  o.rounds = 3;
  o.concurrency = 2;
  o.random_order = true;
  o.seed = 5;
  o.adjudication.draw = true;
  o.adjudication.draw_move_number = 30;
  o.adjudication.draw_move_count = 6;
  o.adjudication.draw_score = 15;
  o.pgn_file = test::temp_dir() + "/self.pgn";
  std::ostringstream out;
  std::string error;
  const auto summary = run_match(o, out, &error);
  ASSERT_TRUE(summary) << error;
  EXPECT_EQ(summary->games, 6);
  EXPECT_EQ(summary->wins + summary->losses + summary->draws, 6);
  EXPECT_EQ(summary->pairs[0] + summary->pairs[1] + summary->pairs[2] + summary->pairs[3] + summary->pairs[4],
            3);
  EXPECT_EQ(summary->failures, 0);
  EXPECT_NE(out.str().find("Games: 6, Wins: "), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("Ptnml(0-2): ["), std::string::npos) << out.str();
  // A match without faults says so (a ledger record made from the summary then knows it).
  EXPECT_NE(out.str().find("Engine failures: 0 (first 0, second 0), time losses: 0 (first 0, second 0)"),
            std::string::npos)
      << out.str();
  check_games(o.pgn_file, 6);
  // Each move carries fastchess's comment, which perf/pgn_scores.py reads: score/depth time.
  std::ifstream pgn(o.pgn_file);
  std::stringstream text;
  text << pgn.rdbuf();
  const std::string games = text.str();
  const std::regex comment(R"(\{[+-](M\d+|\d+\.\d\d)/\d+ \d+\.\d{3}s\})");
  const auto count =
      std::distance(std::sregex_iterator(games.begin(), games.end(), comment), std::sregex_iterator());
  EXPECT_GT(count, 6 * 10) << games;
}

// A side that crashes, hangs past its clock, plays an illegal move or answers late loses the
// game; with -recover the match goes on with a restarted engine, without it the match ends
// with the reason.
TEST(MatchGames, EnginesThatFailLoseTheirGamesAndTheMatchGoesOn) {
  struct Case {
    const char* name;
    const char* on_go;
    bool clock;
    const char* termination;      // in the runner's output
    const char* pgn_termination;  // the PGN's Termination tag (perf/soak_summary.py reads it)
  };
  const Case cases[] = {
      {"crashes", "exit 3", true, "exits (crashed)", "abandoned"},
      {"illegal", "echo 'bestmove e2e5'", true, "makes an illegal move", "illegal move"},
      {"slow", "sleep 0.6; echo 'bestmove e7e5'", true, "Black loses on time}", "time forfeit"},
      {"silent", ":", true, "loses on time (no answer)", "time forfeit"},
      {"hangs", ":", false, "does not answer (hung)", "stalled connection"}};
  for (const Case& c : cases) {
    MatchOptions o = two_engines(VBLITZ_BINARY, stand_in(c.name, c.on_go));
    for (Limit& l : o.limits) {
      if (c.clock)
        l.clock = true, l.base_ms = 300, l.increment_ms = 0;
      else
        l.nodes = 500;
    }
    o.rounds = 2;
    o.recover = true;
    o.hang_ms = 2000;  // the slow side's answer (at 0.6 s) comes well before its game is given up
    o.pgn_file = test::temp_dir() + "/" + c.name + ".pgn";
    std::ostringstream out;
    std::string error;
    const auto summary = run_match(o, out, &error);
    ASSERT_TRUE(summary) << c.name << ": " << error;
    EXPECT_EQ(summary->games, 4) << out.str();
    EXPECT_EQ(summary->wins, 4) << c.name << ":\n" << out.str();
    EXPECT_NE(out.str().find(c.termination), std::string::npos) << c.name << ":\n" << out.str();
    // Each loss is charged to the engine that failed, whichever colour it had.
    const int on_time = std::string(c.pgn_termination) == "time forfeit" ? 4 : 0;
    EXPECT_EQ(summary->time_losses_of[0], 0) << c.name;
    EXPECT_EQ(summary->time_losses_of[1], on_time) << c.name;
    EXPECT_EQ(summary->failures_of[0], 0) << c.name;
    EXPECT_EQ(summary->failures_of[1], summary->failures) << c.name;
    EXPECT_NE(out.str().find("time losses: " + std::to_string(on_time) + " (first 0, second " +
                             std::to_string(on_time) + ")"),
              std::string::npos)
        << c.name << ":\n"
        << out.str();
    std::ifstream pgn(o.pgn_file);
    std::stringstream text;
    text << pgn.rdbuf();
    EXPECT_NE(text.str().find(std::string("[Termination \"") + c.pgn_termination + "\"]"), std::string::npos)
        << c.name << ":\n"
        << text.str();
    o.recover = false;
    error.clear();
    if (std::string(c.name) == "crashes" || std::string(c.name) == "illegal") {
      EXPECT_FALSE(run_match(o, out, &error)) << c.name;
      EXPECT_NE(error.find("second"), std::string::npos) << error;
    }
  }
  // An engine that cannot start ends the match with a message.
  MatchOptions o = two_engines(VBLITZ_BINARY, "/nonexistent/engine");
  for (Limit& l : o.limits) l.nodes = 100;
  std::ostringstream out;
  std::string error;
  EXPECT_FALSE(run_match(o, out, &error));
  EXPECT_NE(error.find("second"), std::string::npos) << error;
}

// Pondering (`ponder`): both sides think on the reply they named. The commands each engine got
// (logged by a wrapper in front of the vblitz binary, one log per side) follow UCI: after
// `go ponder` only `ponderhit` or `stop`, never a new position, a new game or quit; some
// replies are hits. The games are whole and legal, with no fault.
TEST(MatchGames, PonderingEnginesGetPonderhitOrStopAndNothingElse) {
  std::string logs[2];
  MatchOptions o = two_engines("", "");
  for (int e = 0; e < 2; ++e) {
    // One log per side: with both sides' tee writing into one file, one side's `stop` could
    // reach its engine, be answered, and the other side's `quit` be logged before it.
    logs[e] = test::temp_dir() + "/ponder_commands_" + std::to_string(e) + ".log";
    std::remove(logs[e].c_str());
    const std::string wrapper = test::temp_dir() + "/logging_vblitz_" + std::to_string(e);
    std::ofstream(wrapper) << "#!/bin/sh\ntee -a '" << logs[e] << "' | exec '" << VBLITZ_BINARY << "'\n";
    chmod(wrapper.c_str(), 0755);
    o.engines[e].cmd = wrapper;
    o.engines[e].ponder = true;
    // The protocol is what is tested, not the clock: a margin keeps a loaded machine's late
    // answer from ending a game early.
    o.limits[e] = Limit{true, 2000, 20, 0, 0, 1000};
  }
  o.rounds = 2;
  o.adjudication.draw = true;
  o.adjudication.draw_move_number = 30;
  o.adjudication.draw_move_count = 4;
  o.adjudication.draw_score = 20;
  o.adjudication.resign = true;
  o.adjudication.resign_move_count = 3;
  o.adjudication.resign_score = 600;
  o.pgn_file = test::temp_dir() + "/ponder.pgn";
  std::remove(o.pgn_file.c_str());
  std::ostringstream out;
  std::string error;
  const auto summary = run_match(o, out, &error);
  ASSERT_TRUE(summary) << error;
  EXPECT_EQ(summary->games, 4) << out.str();
  EXPECT_EQ(summary->failures, 0) << out.str();
  EXPECT_GT(summary->ponder_hits, 0) << out.str();
  EXPECT_NE(out.str().find("Ponder hits: "), std::string::npos) << out.str();
  check_games(o.pgn_file, 4);
  // Each side's log is in the order its engine read the commands. After `go ponder` comes
  // `ponderhit` or `stop` before any other command; `stop` comes only to a search pondering or
  // going on after a ponderhit (it may have answered already: the log cannot tell).
  int hits = 0;
  for (int e = 0; e < 2; ++e) {
    std::ifstream in(logs[e]);
    int ponders = 0, side_hits = 0, missed = 0, newgames = 0, quits = 0;
    enum { kIdle, kPondering, kAfterHit } state = kIdle;
    for (std::string line; std::getline(in, line);) {
      if (line == "ponderhit") {
        if (state != kPondering) ADD_FAILURE() << "side " << e << ": ponderhit without go ponder";
        ++side_hits, state = kAfterHit;
      } else if (line == "stop") {
        if (state == kIdle) ADD_FAILURE() << "side " << e << ": stop with no search to stop";
        missed += state == kPondering;
        state = kIdle;
      } else {
        if (state == kPondering)
          ADD_FAILURE() << "side " << e << ": " << line << " sent to an engine still pondering";
        state = line.rfind("go ponder", 0) == 0 ? kPondering : kIdle;
        ponders += state == kPondering;
      }
      newgames += line == "ucinewgame";
      quits += line == "quit";
    }
    EXPECT_NE(state, kPondering) << "side " << e;
    EXPECT_GT(ponders, 0) << "side " << e;
    EXPECT_EQ(ponders, side_hits + missed) << "side " << e;
    EXPECT_GE(newgames, 4) << "side " << e;  // four games
    EXPECT_GE(quits, 1) << "side " << e;
    hits += side_hits;
  }
  EXPECT_EQ(hits, summary->ponder_hits);
}

// The rules come before adjudication: a mating move ends the game as a mate even when its
// score (here a resigning one, from a stand-in playing fool's mate) would have ended it too.
TEST(MatchGames, AMateIsAMateWhateverTheScoreSaid) {
  const std::string fool = test::temp_dir() + "/fools_mate";
  std::ofstream(fool)
      << "#!/bin/bash\nwhile read -r line; do\n  case \"$line\" in\n"
         "    uci) echo 'id name fool'; echo uciok ;;\n"
         "    isready) echo readyok ;;\n"
         "    position*moves*) set -- ${line#*moves }; n=$# ;;\n"
         "    position*) n=0 ;;\n"
         "    go*) case $n in 0) echo 'bestmove f2f3' ;; 1) echo 'bestmove e7e5' ;;"
         " 2) echo 'bestmove g2g4' ;; *) echo 'info depth 1 score cp -1000'; echo 'bestmove d8h4' ;;"
         " esac ;;\n"
         "    quit) exit 0 ;;\n  esac\ndone\n";
  chmod(fool.c_str(), 0755);
  MatchOptions o = two_engines(fool, fool);
  o.openings_file = start_position_file();
  for (Limit& l : o.limits) l.nodes = 100;
  o.rounds = 1;
  o.adjudication.resign = true;
  o.adjudication.resign_move_count = 1;
  o.adjudication.resign_score = 600;
  o.pgn_file = test::temp_dir() + "/fools_mate.pgn";
  std::remove(o.pgn_file.c_str());
  std::ostringstream out;
  std::string error;
  const auto summary = run_match(o, out, &error);
  ASSERT_TRUE(summary) << error;
  EXPECT_EQ(summary->games, 2) << out.str();
  EXPECT_EQ(summary->wins, 1) << out.str();  // Black mates in both games
  EXPECT_EQ(summary->losses, 1) << out.str();
  EXPECT_EQ(out.str().find("resigns"), std::string::npos) << out.str();
  check_games(o.pgn_file, 2);
}

// A game that ends on the opponent's move right after a ponderhit (here the opponent resigns
// by adjudication with the move the ponderer expected) leaves the ponderer searching: it is
// sent `stop` and its bestmove is read before the next game, so no command reaches it during
// that search and no stale bestmove answers the next game's `go`. The ponderer is a stand-in
// whose search after ponderhit takes half a second unless stopped; it logs any other command
// that comes meanwhile.
TEST(MatchGames, ASearchLeftByAPonderhitIsStoppedWhenTheGameEnds) {
  const std::string log = test::temp_dir() + "/interrupted_search.log";
  std::remove(log.c_str());
  const std::string ponderer = test::temp_dir() + "/slow_ponderer";
  std::ofstream(ponderer) << "#!/bin/bash\nhit=0; pondering=0\nwhile true; do\n"
                             "  if [ $hit = 1 ]; then\n"
                             "    if ! read -r -t 0.5 line; then echo 'bestmove g1f3'; hit=0; continue; fi\n"
                             "    [ \"$line\" = stop ] || echo \"$line\" >> '"
                          << log
                          << "'\n"
                             "  else\n    read -r line || exit 0\n  fi\n"
                             "  case \"$line\" in\n"
                             "    uci) echo 'id name slow ponderer'; echo uciok ;;\n"
                             "    isready) echo readyok ;;\n"
                             "    position*) pos=$line ;;\n"
                             "    'go ponder'*) pondering=1 ;;\n"
                             "    ponderhit) pondering=0; hit=1 ;;\n"
                             "    stop) if [ $hit = 1 ] || [ $pondering = 1 ]; then echo 'bestmove g1f3'; "
                             "fi; hit=0; pondering=0 ;;\n"
                             "    go*) case \"$pos\" in *moves*) echo 'bestmove e7e5 ponder g1f3' ;;"
                             " *) echo 'bestmove e2e4 ponder e7e5' ;; esac ;;\n"
                             "    quit) exit 0 ;;\n  esac\ndone\n";
  chmod(ponderer.c_str(), 0755);
  // The opponent answers 1.e4 with 1...e5 (what the ponderer expects) and gives up with it.
  const std::string resigner = test::temp_dir() + "/resigning_opponent";
  std::ofstream(resigner) << "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n"
                             "    uci) echo 'id name resigner'; echo uciok ;;\n"
                             "    isready) echo readyok ;;\n"
                             "    position*) pos=$line ;;\n"
                             "    go*) echo 'info depth 1 score cp -1000'; case \"$pos\" in"
                             " *moves*) echo 'bestmove e7e5' ;; *) echo 'bestmove e2e4' ;; esac ;;\n"
                             "    quit) exit 0 ;;\n  esac\ndone\n";
  chmod(resigner.c_str(), 0755);
  MatchOptions o = two_engines(ponderer, resigner);
  o.openings_file = start_position_file();
  o.engines[0].ponder = true;
  for (Limit& l : o.limits) l = Limit{true, 10000, 0, 0, 0, 0};
  o.rounds = 2;
  o.hang_ms = 2000;
  o.adjudication.resign = true;
  o.adjudication.resign_move_count = 1;
  o.adjudication.resign_score = 600;
  std::ostringstream out;
  std::string error;
  const auto summary = run_match(o, out, &error);
  ASSERT_TRUE(summary) << error;
  EXPECT_EQ(summary->games, 4) << out.str();
  EXPECT_EQ(summary->wins, 4) << out.str();  // the resigner gives up every game
  EXPECT_EQ(summary->failures, 0) << out.str();
  EXPECT_EQ(summary->ponder_hits, 2) << out.str();  // the games where the ponderer is White
  std::ifstream in(log);
  std::stringstream during;
  during << in.rdbuf();
  EXPECT_EQ(during.str(), "") << "commands sent during the search after a ponderhit";
}

// A pondering engine that does not answer `stop` after a missed reply loses that game
// (stalled), and with -recover the match goes on with it restarted.
TEST(MatchGames, APonderingEngineThatIgnoresStopLosesTheGame) {
  const std::string path = test::temp_dir() + "/deaf_ponderer";
  std::ofstream(path) << "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n"
                         "    uci) echo 'id name deaf'; echo uciok ;;\n"
                         "    isready) echo readyok ;;\n"
                         "    go\\ ponder*) ;;\n"
                         "    go*) echo 'bestmove e7e5 ponder a2a3' ;;\n"
                         "    quit) exit 0 ;;\n  esac\ndone\n";
  chmod(path.c_str(), 0755);
  MatchOptions o = two_engines(VBLITZ_BINARY, path);
  o.engines[1].ponder = true;
  for (Limit& l : o.limits) l.nodes = 500;
  o.rounds = 1;
  o.recover = true;
  o.hang_ms = 1000;
  std::ostringstream out;
  std::string error;
  const auto summary = run_match(o, out, &error);
  ASSERT_TRUE(summary) << error;
  EXPECT_EQ(summary->games, 2) << out.str();
  EXPECT_EQ(summary->wins, 2) << out.str();
  EXPECT_EQ(summary->failures, 2) << out.str();
  EXPECT_NE(out.str().find("does not answer stop while pondering"), std::string::npos) << out.str();
}

// An interrupt ends the match in order: the games under way and the second game of every pair
// begun are played, no new pair starts, and the standing covers whole pairs only.
TEST(MatchGames, AnInterruptEndsTheMatchAfterWholePairs) {
  MatchOptions o = two_engines(VBLITZ_BINARY, VBLITZ_BINARY);
  for (Limit& l : o.limits) l.nodes = 3000;
  o.rounds = 20;
  o.concurrency = 2;
  o.pgn_file = test::temp_dir() + "/interrupted.pgn";
  std::remove(o.pgn_file.c_str());
  std::atomic<bool> interrupt{false};
  o.interrupt = &interrupt;
  // The interrupt comes once the first game is in the PGN (a pair has begun however slow the
  // build or the machine; a fixed delay saw none begun under AddressSanitizer on a busy machine).
  std::atomic<bool> finished{false};
  std::thread later([&] {
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (!finished && std::chrono::steady_clock::now() < give_up) {
      std::ifstream pgn(o.pgn_file);
      std::stringstream text;
      text << pgn.rdbuf();
      if (text.str().find("[Result ") != std::string::npos) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    interrupt = true;
  });
  std::ostringstream out;
  std::string error;
  const auto summary = run_match(o, out, &error);
  finished = true;
  later.join();
  ASSERT_TRUE(summary) << error;
  EXPECT_TRUE(summary->interrupted);
  EXPECT_GE(summary->games, 2);
  EXPECT_LT(summary->games, 40);
  EXPECT_EQ(summary->games % 2, 0);
  const auto& p = summary->pairs;
  EXPECT_EQ(2 * (p[0] + p[1] + p[2] + p[3] + p[4]), summary->games);
  EXPECT_NE(out.str().find("Interrupted: " + std::to_string(summary->games) + " of 40 games played"),
            std::string::npos)
      << out.str();
  check_games(o.pgn_file, summary->games);
}

// The same through the program: SIGINT (Ctrl-C) ends vblitz-match with its standing, exit 0,
// and no engine is lost in the games that finish (the engines do not get the signal).
TEST(MatchGames, SigintEndsTheProgramWithItsStanding) {
  const std::string pgn = test::temp_dir() + "/sigint.pgn";
  std::remove(pgn.c_str());
  test::ChildProcess runner({VBLITZ_MATCH_BINARY,
                             "-engine",
                             std::string("cmd=") + VBLITZ_BINARY,
                             "name=a",
                             "-engine",
                             std::string("cmd=") + VBLITZ_BINARY,
                             "name=b",
                             "-each",
                             "nodes=3000",
                             "-openings",
                             "file=" + openings_file(),
                             "-rounds",
                             "50",
                             "-games",
                             "2",
                             "-repeat",
                             "-concurrency",
                             "2",
                             "-pgnout",
                             "file=" + pgn});
  bool found = false;
  std::string text = runner.read_until("Finished game", std::chrono::seconds(120), &found);
  ASSERT_TRUE(found) << text;
  kill(runner.pid(), SIGINT);
  text += runner.read_until("-----", std::chrono::seconds(120), &found);  // the summary's last rule
  text += runner.read_until("-----", std::chrono::seconds(120), &found);
  EXPECT_EQ(runner.wait(std::chrono::seconds(30)), 0) << text;
  EXPECT_NE(text.find("Interrupted: "), std::string::npos) << text;
  EXPECT_EQ(text.find("crashed"), std::string::npos) << text;
  const size_t at = text.find("Games: ");
  ASSERT_NE(at, std::string::npos) << text;
  const int games = std::stoi(text.substr(at + 7));
  EXPECT_EQ(games % 2, 0) << text;
  EXPECT_LT(games, 100) << text;
  check_games(pgn, games);
}

// An xboard engine (a stand-in that logs what it gets): the handshake's features are answered,
// the opening goes by setboard, the clock by level, time and otim (centiseconds), the opponent's
// moves by usermove; a SAN answer is read, and `resign` ends the game as a loss.
TEST(MatchGames, XboardEnginesAreToldTheGameAndAnswerInCoordinatesOrSan) {
  const std::string log = test::temp_dir() + "/xboard_commands.log";
  std::remove(log.c_str());
  const std::string path = test::temp_dir() + "/xboard_stand_in";
  std::ofstream(path)
      << "#!/bin/sh\nmoves=0\nwhile read -r line; do\n  echo \"$line\" >> '" << log
      << "'\n  case \"$line\" in\n"
         "    protover*) echo 'feature myname=\"stand in\" setboard=1 usermove=1 ping=1 done=1' ;;\n"
         "    ping*) echo \"pong ${line#ping }\" ;;\n"
         "    go) moves=$((moves + 1)); if [ $moves = 1 ]; then echo '1 -25 3 120 e5'; echo 'move e5';"
         " else echo resign; fi ;;\n"
         "    quit) exit 0 ;;\n  esac\ndone\n";
  chmod(path.c_str(), 0755);
  MatchOptions o = two_engines(VBLITZ_BINARY, path);
  o.engines[1].protocol = Protocol::kXboard;
  o.limits[0] = Limit{true, 5000, 100, 1000, 0, 0};  // a clock, and 1,000 nodes a move
  o.limits[1] = Limit{true, 5000, 100, 0, 0, 0};
  o.repeat = false;
  o.games_per_round = 1;
  o.rounds = 1;
  o.pgn_file = test::temp_dir() + "/xboard_stand_in.pgn";
  std::remove(o.pgn_file.c_str());
  std::ostringstream out;
  std::string error;
  const auto summary = run_match(o, out, &error);
  ASSERT_TRUE(summary) << error;
  EXPECT_EQ(summary->games, 1) << out.str();
  EXPECT_EQ(summary->wins, 1) << out.str();
  EXPECT_EQ(summary->failures, 0) << out.str();
  EXPECT_NE(out.str().find("Black resigns"), std::string::npos) << out.str();
  std::ifstream pgn(o.pgn_file);
  std::stringstream games;
  games << pgn.rdbuf();
  EXPECT_NE(games.str().find("1... e5 {-0.25/1 "), std::string::npos) << games.str();  // SAN, score read
  std::ifstream in(log);
  std::stringstream commands;
  commands << in.rdbuf();
  const std::string text = commands.str();
  for (const char* expected :
       {"xboard\n", "protover 2\n", "accepted setboard\n", "accepted usermove\n", "new\n", "force\n",
        "setboard rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n", "level 0 0:05 0.1\n",
        "time 500\notim 500\ngo\n", "usermove "})
    EXPECT_NE(text.find(expected), std::string::npos) << expected << " in:\n" << text;
  // Its second turn: its own clock less what the first move took, and the opponent's reply.
  const size_t second = text.find("usermove ");
  ASSERT_NE(second, std::string::npos);
  EXPECT_NE(text.find("time ", second), std::string::npos) << text;
}

// Real xboard engines: VBlitz behind Debian's polyglot against Fairy-Max, both on a clock, two
// whole games by the rules without a fault.
TEST(MatchGames, PolyglotAgainstFairyMaxPlaysWholeGames) {
  constexpr const char* kPolyglot = "/usr/games/polyglot";
  constexpr const char* kFairyMax = "/usr/games/fairymax";
  if (access(kPolyglot, X_OK) != 0 || access(kFairyMax, X_OK) != 0) {
    // .ci/install-deps.sh installs both: under CI their absence is a failure.
    if (std::getenv("CI"))
      FAIL() << "polyglot or fairymax is missing although .ci/install-deps.sh installs them";
    GTEST_SKIP() << "polyglot or fairymax is not installed (apt-get install polyglot fairymax)";
  }
  MatchOptions o = two_engines(kPolyglot, kFairyMax);
  o.engines[0].args = {"-noini", "-ec", VBLITZ_BINARY};
  for (int e = 0; e < 2; ++e) {
    o.engines[e].protocol = Protocol::kXboard;
    o.limits[e] = Limit{true, 2000, 20, 0, 0, 1000};  // the margin: a loaded machine's late answer
  }
  o.rounds = 1;
  o.adjudication.resign = true;
  o.adjudication.resign_move_count = 3;
  o.adjudication.resign_score = 600;
  o.adjudication.draw = true;
  o.adjudication.draw_move_number = 30;
  o.adjudication.draw_move_count = 4;
  o.adjudication.draw_score = 20;
  o.pgn_file = test::temp_dir() + "/polyglot_fairymax.pgn";
  std::remove(o.pgn_file.c_str());
  std::ostringstream out;
  std::string error;
  const auto summary = run_match(o, out, &error);
  ASSERT_TRUE(summary) << error;
  EXPECT_EQ(summary->games, 2) << out.str();
  EXPECT_EQ(summary->failures, 0) << out.str();
  EXPECT_EQ(summary->time_losses, 0) << out.str();
  check_games(o.pgn_file, 2);
}

}  // namespace
}  // namespace vblitz::match
