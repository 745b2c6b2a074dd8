// Micro-benchmarks of the scalar core: legal move generation and make/unmake.
#include <benchmark/benchmark.h>

#include "core/movegen.h"
#include "core/perft.h"

namespace {

using namespace vblitz::core;

constexpr const char* kKiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

void BM_GenerateLegal(benchmark::State& state) {
  StateInfo si;
  Position pos;
  pos.set(kKiwipete, si);
  for (auto _ : state) {
    MoveList<LEGAL> moves(pos);
    benchmark::DoNotOptimize(moves.size());
  }
}
BENCHMARK(BM_GenerateLegal);

void BM_MakeUnmake(benchmark::State& state) {
  StateInfo si, next;
  Position pos;
  pos.set(kKiwipete, si);
  MoveList<LEGAL> moves(pos);
  for (auto _ : state) {
    for (Move m : moves) {
      pos.do_move(m, next);
      pos.undo_move(m);
    }
  }
  state.SetItemsProcessed(state.iterations() * int64_t(moves.size()));
}
BENCHMARK(BM_MakeUnmake);

void BM_PerftKiwipete3(benchmark::State& state) {
  StateInfo si;
  Position pos;
  pos.set(kKiwipete, si);
  for (auto _ : state) benchmark::DoNotOptimize(perft(pos, 3));
  state.SetItemsProcessed(state.iterations() * 97862);
}
BENCHMARK(BM_PerftKiwipete3);

}  // namespace
