// vblitz: the UCI engine when run without arguments, or a one-shot command:
//   vblitz perft <depth> [FEN]
#include <iostream>
#include <string>

#include "core/game.h"
#include "uci/uci.h"

int main(int argc, char** argv) {
  using namespace vblitz;
  std::ios::sync_with_stdio(false);
  if (argc < 2) return uci::run_loop(std::cin, std::cout);

  std::string command = argv[1];
  if (command == "perft") {
    long depth = 0;
    if (argc < 3 || !uci::parse_int(argv[2], 1, 64, depth)) {
      std::cerr << "usage: vblitz perft <depth 1-64> [FEN]\n";
      return 2;
    }
    std::string fen = core::Position::kStartFen;
    if (argc > 3) {
      fen.clear();
      for (int i = 3; i < argc; ++i) fen += std::string(argv[i]) + ' ';
    }
    core::Game game;
    if (auto err = game.set_fen(fen)) {
      std::cerr << "bad FEN: " << *err << '\n';
      return 2;
    }
    uci::print_perft(game.position(), int(depth), std::cout);
    return 0;
  }
  std::cerr << "unknown command '" << command << "'\nusage: vblitz [perft <depth> [FEN]]\n";
  return 2;
}
