// vblitz-match: a match between two UCI or xboard engines (docs/matches.md).
#include <atomic>
#include <csignal>
#include <iostream>
#include <string>
#include <vector>

#include "match/runner.h"

namespace {

constexpr const char* kUsage =
    R"(usage: vblitz-match -engine cmd=PATH name=NAME [option.X=Y ...] -engine ... [-each ...]
         -openings file=FILE [format=epd|fen] [order=random|sequential] -rounds N [-games 2 -repeat]
         [-concurrency N] [-recover] [-srand N] [-draw movenumber=N movecount=N score=CP]
         [-resign movecount=N score=CP [twosided=true]] [-sprt elo0=E elo1=E alpha=A beta=B]
         [-pgnout file=FILE] [-log file=FILE] [-ratinginterval N]
engine and -each settings: cmd= name= args="A B" arg=A option.NAME=VALUE proto=uci|xboard
         tc=inf|SECONDS[+INCREMENT] nodes=N depth=N timemargin=MS ponder[=true|false]
A subset of fastchess's command line; docs/matches.md.
The first SIGINT or SIGTERM (Ctrl-C) ends the match after the games under way (and the second
game of a pair begun) and prints the standing of the games played; a second one ends it at once.
)";

std::atomic<bool> interrupted{false};

void on_signal(int) { interrupted = true; }  // lock-free atomic store: safe in a handler

}  // namespace

int main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);  // an engine that dies mid-write loses the game, not the match
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "-help") {
    std::cout << kUsage;
    return args.empty() ? 2 : 0;
  }
  vblitz::match::MatchOptions options;
  if (auto error = vblitz::match::parse_arguments(args, options)) {
    std::cerr << "vblitz-match: " << *error << '\n' << kUsage;
    return 2;
  }
  // One signal asks for an orderly end; SA_RESETHAND leaves the next to end the process.
  struct sigaction action {};
  action.sa_handler = on_signal;
  action.sa_flags = SA_RESETHAND;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  options.interrupt = &interrupted;
  std::string error;
  const auto summary = vblitz::match::run_match(options, std::cout, &error);
  if (!summary) {
    std::cerr << "vblitz-match: " << error << '\n';
    return 1;
  }
  return 0;
}
