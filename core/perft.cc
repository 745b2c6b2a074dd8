// Perft with bulk counting at the last ply.
#include "core/perft.h"

#include <optional>

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

namespace {

// perft that looks at `stop` at every node three or more plies above the leaves; nullopt when
// stopped.
std::optional<uint64_t> perft_until(Position& pos, int depth, const std::atomic<bool>& stop) {
  if (depth < 3) return perft(pos, depth);
  if (stop.load(std::memory_order_relaxed)) return std::nullopt;
  uint64_t nodes = 0;
  StateInfo st;
  for (Move m : MoveList<LEGAL>(pos)) {
    pos.do_move(m, st);
    const std::optional<uint64_t> below = perft_until(pos, depth - 1, stop);
    pos.undo_move(m);
    if (!below) return std::nullopt;
    nodes += *below;
  }
  return nodes;
}

}  // namespace

std::vector<std::pair<Move, uint64_t>> perft_divide(Position& pos, int depth, const std::atomic<bool>* stop) {
  static const std::atomic<bool> never{false};
  std::vector<std::pair<Move, uint64_t>> result;
  StateInfo st;
  for (Move m : MoveList<LEGAL>(pos)) {
    pos.do_move(m, st);
    const std::optional<uint64_t> nodes = perft_until(pos, depth - 1, stop ? *stop : never);
    pos.undo_move(m);
    if (!nodes) break;
    result.emplace_back(m, *nodes);
  }
  return result;
}

}  // namespace vblitz::core
