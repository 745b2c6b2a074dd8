// `vblitz book ...`: building and inspecting opening books from the command line.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace vblitz::app {

// args after "book":
//   build GAMES.pgn OUT.bin [--max-ply N] [--min-games N] [--extended OUT.txt]
//   probe BOOK.bin [FEN]
// Writes results to out, skipped games and errors to err; returns the exit status.
int run_book_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace vblitz::app
