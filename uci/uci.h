// The UCI protocol loop: reads commands line by line and answers on the output stream.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>

#include "core/game.h"

namespace vblitz::uci {

class Engine {
 public:
  explicit Engine(std::ostream& out) : out_(out) {}

  // Handles one command line. Returns false when the engine should exit (`quit`).
  bool handle(std::string_view line);

 private:
  void say(const std::string& text);
  void error(const std::string& reason) { say("info string error: " + reason); }
  void cmd_uci();
  void cmd_position(std::string_view args);
  void cmd_go(std::string_view args);
  void cmd_setoption(std::string_view args);
  void cmd_display();
  void cmd_perft(std::string_view depth_text);

  std::ostream& out_;
  core::Game game_;
  bool chess960_ = false;
};

// Runs the loop until `quit` or end of input; returns the process exit status.
int run_loop(std::istream& in, std::ostream& out);

// Prints a perft breakdown by root move, then "Nodes searched: N", time and speed.
void print_perft(core::Position& pos, int depth, std::ostream& out);

// Parses a whole decimal integer in [lo, hi]; false if the text is anything else.
bool parse_int(std::string_view text, long lo, long hi, long& value);

}  // namespace vblitz::uci
