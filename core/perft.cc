// Perft with bulk counting at the last ply.
#include "core/perft.h"

#include "core/movegen.h"

namespace vblitz::core {

uint64_t perft(Position& pos, int depth) {
  if (depth == 0) return 1;
  MoveList<LEGAL> moves(pos);
  if (depth == 1) return moves.size();
  uint64_t nodes = 0;
  StateInfo st;
  for (Move m : moves) {
    pos.do_move(m, st);
    nodes += perft(pos, depth - 1);
    pos.undo_move(m);
  }
  return nodes;
}

std::vector<std::pair<Move, uint64_t>> perft_divide(Position& pos, int depth) {
  std::vector<std::pair<Move, uint64_t>> result;
  StateInfo st;
  for (Move m : MoveList<LEGAL>(pos)) {
    pos.do_move(m, st);
    result.emplace_back(m, perft(pos, depth - 1));
    pos.undo_move(m);
  }
  return result;
}

}  // namespace vblitz::core
