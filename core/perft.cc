// Perft with bulk counting at the last ply.
#include "core/perft.h"

#include <atomic>
#include <optional>

#include "core/movegen.h"

namespace vblitz::core {

namespace {

// perft(pos, 2) of a batchable node: its children counted by `counter` in one batch, made from
// the parent's board and the moves; a child with an en passant square by count_legal.
uint64_t perft_two_batched(Position& pos, ChildCounter counter) {
  ChildBatch batch;
  start_batch(pos, batch);
  uint64_t nodes = 0;
  for (Move m : MoveList<LEGAL>(pos)) {
    if (!gives_en_passant_square(pos, m)) {
      add_child(batch, m);
      continue;
    }
    StateInfo st;
    pos.do_move(m, st);
    nodes += uint64_t(count_legal(pos));
    pos.undo_move(m);
  }
  pad(batch);
  uint64_t counts[kChildCapacity];
  counter(batch, counts);
  for (size_t i = 0; i < batch.size; ++i) nodes += counts[i];
  return nodes;
}

}  // namespace

void set_child_counter(ChildCounter counter) { detail::process_move_kernels.child = counter; }

uint64_t perft(Position& pos, int depth) {
  if (depth == 0) return 1;
  if (depth == 1) return uint64_t(count_legal(pos));
  if (depth == 2)
    if (const ChildCounter counter = move_kernels().child)
      if (batchable(pos)) return perft_two_batched(pos, counter);
  MoveList<LEGAL> moves(pos);
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

// perft_divide on `threads` threads over the share's positions two plies down (depth >= 3).
std::vector<std::pair<Move, uint64_t>> parallel_divide(const Position& pos, int depth,
                                                       const std::atomic<bool>& stop, int threads,
                                                       PerftShare share) {
  struct Task {
    size_t root;  // index of the root move
    Move reply;
  };
  const MoveList<LEGAL> roots(pos);
  std::vector<Task> tasks;
  for (size_t i = 0; i < roots.size(); ++i) {
    Position child = pos;
    StateInfo st;
    child.do_move(roots.begin()[i], st);
    for (Move reply : MoveList<LEGAL>(child)) tasks.push_back({i, reply});
  }
  std::vector<size_t> mine;  // the tasks of this share
  for (size_t t = size_t(share.part); t < tasks.size(); t += size_t(share.parts)) mine.push_back(t);
  std::vector<uint64_t> counts(tasks.size(), 0);
  std::vector<char> done(tasks.size(), 1);
  for (size_t t : mine) done[t] = 0;
  const MoveKernels& kernels = move_kernels();  // the workers count with the caller's kernels
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads)
  for (size_t k = 0; k < mine.size(); ++k) {
    const MoveKernelScope scope(kernels);
    const size_t t = mine[k];
    Position p = pos;  // the game's earlier states are shared, read only
    StateInfo st1, st2;
    p.do_move(roots.begin()[tasks[t].root], st1);
    p.do_move(tasks[t].reply, st2);
    if (const std::optional<uint64_t> n = perft_until(p, depth - 2, stop)) {
      counts[t] = *n;
      done[t] = 1;
    }
  }
  // The root moves in order, up to the first one not finished.
  std::vector<std::pair<Move, uint64_t>> result;
  size_t t = 0;
  for (size_t i = 0; i < roots.size(); ++i) {
    uint64_t nodes = 0;
    for (; t < tasks.size() && tasks[t].root == i; ++t) {
      if (!done[t]) return result;
      nodes += counts[t];
    }
    result.emplace_back(roots.begin()[i], nodes);
  }
  return result;
}

}  // namespace

std::vector<std::pair<Move, uint64_t>> perft_divide(Position& pos, int depth, const std::atomic<bool>* stop,
                                                    int threads, PerftShare share) {
  static const std::atomic<bool> never{false};
  if ((threads > 1 || share.parts > 1) && depth >= 3)
    return parallel_divide(pos, depth, stop ? *stop : never, threads, share);
  std::vector<std::pair<Move, uint64_t>> result;
  StateInfo st;
  for (Move m : MoveList<LEGAL>(pos)) {
    if (share.part != 0) {  // shallow: part 0 counts it all
      result.emplace_back(m, 0);
      continue;
    }
    pos.do_move(m, st);
    const std::optional<uint64_t> nodes = perft_until(pos, depth - 1, stop ? *stop : never);
    pos.undo_move(m);
    if (!nodes) break;
    result.emplace_back(m, *nodes);
  }
  return result;
}

}  // namespace vblitz::core
