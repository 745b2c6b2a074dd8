// Google Benchmark of every SIMD kernel: the scalar twin against the Highway version on each
// compiled target, in ns per operation.
// "twin" names the scalar twin; "scalar" is Highway's one-lane fallback target. Benchmarks are named
// kernel/case/implementation so perf/kernels_report.py can tabulate them.
#include <benchmark/benchmark.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "core/child_boards.h"
#include "core/movegen.h"
#include "core/position.h"
#include "core/prng.h"
#include "simd/aligned_vector.h"
#include "simd/child_count.h"
#include "simd/dispatch.h"
#include "simd/killer_match.h"
#include "simd/move_count.h"
#include "simd/network_kernels.h"
#include "simd/quiet_sort.h"
#include "simd/serialize.h"
#include "simd/slider_attacks.h"
#include "simd/table_scan.h"
#include "simd/tt_probe.h"

namespace {

using namespace vblitz;

constexpr size_t kInputs = 1 << 12;  // inputs cycled through by each benchmark (a power of 2)

// Positions of the perft suite, as realistic boards for the attack-map and table kernels.
const std::vector<core::Position>& suite_positions() {
  static std::deque<core::StateInfo> states;
  static const std::vector<core::Position> positions = [] {
    std::vector<core::Position> list;
    const std::string path = std::string(VBLITZ_DATA_DIR) + "/ethereal_fischer.epd";
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
      states.emplace_back();
      core::Position pos;
      if (!pos.set(line.substr(0, line.find(';')), states.back())) list.push_back(pos);
    }
    if (list.empty()) {  // every benchmark below walks this list: refuse rather than divide by zero
      std::fprintf(stderr, "vblitz_kernels: no positions in %s\n", path.c_str());
      std::exit(1);
    }
    return list;
  }();
  return positions;
}

// The batches perft makes two plies above the leaves below the standard perft-suite positions:
// the children of each position (`below` 0) or of each of its children (`below` 1), one batch
// per parent (children with an en passant square left out).
const std::vector<core::ChildBatch>& suite_children(int below) {
  static std::vector<core::ChildBatch> batches[2];
  std::vector<core::ChildBatch>& list = batches[below];
  if (!list.empty()) return list;
  const auto add_batch = [&list](const core::Position& pos) {
    if (!core::batchable(pos)) return;
    core::ChildBatch& batch = list.emplace_back();
    core::start_batch(pos, batch);
    for (core::Move m : core::MoveList<core::LEGAL>(pos))
      if (!core::gives_en_passant_square(pos, m)) core::add_child(batch, m);
    core::pad(batch);
  };
  std::ifstream in(std::string(VBLITZ_DATA_DIR) + "/ethereal_standard.epd");
  for (std::string line; std::getline(in, line);) {
    core::StateInfo state;
    core::Position pos;
    if (pos.set(line.substr(0, line.find(';')), state)) continue;
    if (below == 0) add_batch(pos);
    for (core::Move m : core::MoveList<core::LEGAL>(pos)) {
      if (below == 0) break;
      core::StateInfo child_state;
      pos.do_move(m, child_state);
      add_batch(pos);
      pos.undo_move(m);
    }
  }
  return list;
}

// A 64-byte-aligned table of random entries, `bytes` long plus room for the Cray layout's reach.
struct Table {
  std::unique_ptr<uint64_t[], decltype(&std::free)> data{nullptr, &std::free};
  size_t entries = 0;
  explicit Table(size_t bytes) : entries(bytes / 8) {
    size_t padded = entries + 8 * 1024;
    data.reset(static_cast<uint64_t*>(std::aligned_alloc(64, padded * 8)));
    core::Prng rng(3);
    for (size_t i = 0; i < padded; ++i)
      data[i] = simd::tt::pack(uint16_t(rng.next()), 0, 0, uint8_t(rng.below(60)),
                               simd::tt::Bound(1 + rng.below(3)), uint8_t(rng.below(2)));
  }
};

// Selects the implementation named `impl`: "twin" (the scalar twins) or a Highway target name
// (note that Highway's own one-lane fallback target is called "scalar").
bool select(const std::string& impl) {
  if (impl == "twin") {
    simd::set_kernels(simd::Kernels::kScalar);
    return simd::set_simd_target("best");
  }
  simd::set_kernels(simd::Kernels::kAllVector);
  return simd::set_simd_target(impl);
}

using benchmark::State;

// One function per kernel and case, as Highway's bench_sort.cc has; each runs with the
// implementation already selected. A new kernel adds its functions here and a line to
// register_all (CONTRIBUTING.md's checklist).

void TtProbeBucket(State& state, size_t bytes) {
  Table table(bytes);
  core::Prng rng(5);
  std::vector<uint64_t> buckets(kInputs);
  for (uint64_t& b : buckets) b = rng.below(table.entries / 8) * 8;
  size_t i = 0;
  for (auto _ : state) {
    const uint64_t base = buckets[i++ & (kInputs - 1)];
    benchmark::DoNotOptimize(
        simd::probe_bucket(table.data.get() + base, uint16_t(base), 1, simd::tt::BOUND_LOWER));
  }
}

void TtProbeCray(State& state, size_t bytes) {
  Table table(bytes);
  core::Prng rng(6);
  std::vector<uint64_t> keys(kInputs);
  for (uint64_t& k : keys) k = rng.next();
  size_t i = 0;
  for (auto _ : state) {
    const uint64_t key = keys[i++ & (kInputs - 1)];
    benchmark::DoNotOptimize(simd::probe_cray(table.data.get(), key % table.entries, 1 + ((key >> 32) & 1023),
                                              uint16_t(key), 1, simd::tt::BOUND_LOWER));
  }
}

void SliderAttacksOneSquare(State& state) {
  core::Prng rng(7);
  std::vector<uint64_t> occupancy(kInputs);
  for (uint64_t& o : occupancy) o = rng.next() & rng.next();
  size_t i = 0;
  for (auto _ : state) {
    const size_t k = i++ & (kInputs - 1);
    benchmark::DoNotOptimize(simd::slider_attacks(int(k & 63), occupancy[k]));
  }
}

void SliderAttacksWholeSide(State& state) {
  const auto& positions = suite_positions();
  size_t i = 0;
  for (auto _ : state) {
    const core::Position& pos = positions[i++ % positions.size()];
    benchmark::DoNotOptimize(simd::side_slider_attacks(pos.pieces(core::WHITE, core::ROOK, core::QUEEN),
                                                       pos.pieces(core::WHITE, core::BISHOP, core::QUEEN),
                                                       pos.pieces()));
  }
}

void MoveCountWholeSide(State& state) {
  const auto& positions = suite_positions();
  size_t i = 0;
  for (auto _ : state) {
    const core::Position& pos = positions[i++ % positions.size()];
    benchmark::DoNotOptimize(simd::count_piece_moves(
        pos.pieces(core::WHITE, core::ROOK, core::QUEEN), pos.pieces(core::WHITE, core::BISHOP, core::QUEEN),
        pos.pieces(core::WHITE, core::KNIGHT), pos.pieces(), ~pos.pieces(core::WHITE)));
  }
}

// `below` 0: the children of each suite position; 1: the children of each of its children.
void ChildCount(State& state, int below) {
  const auto& batches = suite_children(below);
  uint64_t counts[core::kChildCapacity];
  size_t i = 0, children = 0;
  for (auto _ : state) {
    const core::ChildBatch& batch = batches[i++ % batches.size()];
    simd::count_child_moves(batch, counts);
    benchmark::DoNotOptimize(counts);
    children += batch.size;
  }
  state.SetItemsProcessed(int64_t(children));  // items/s: children counted per second
  state.counters["children_per_batch"] = double(children) / double(state.iterations());
}

void Serialize8Targets(State& state) {
  core::Prng rng(8);
  std::vector<uint64_t> targets(kInputs);
  for (uint64_t& t : targets)
    for (int n = 0; n < 8; ++n) t |= uint64_t{1} << rng.below(64);
  uint16_t out[64 + simd::kSerializeSlack];
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(simd::serialize(targets[i++ & (kInputs - 1)], 1, 12 << 6, out));
    benchmark::ClobberMemory();
  }
}

void TableScanPieceTables(State& state) {
  core::Prng rng(9);
  std::vector<int32_t> tables(64 * 12);
  for (int32_t& v : tables) v = int32_t(rng.below(200)) - 100;
  std::vector<std::array<uint64_t, 12>> boards;
  for (const core::Position& pos : suite_positions()) {
    std::array<uint64_t, 12> b;
    for (int p = 0; p < 12; ++p) b[p] = pos.pieces(core::Color(p / 6), core::PieceType(p % 6 + 1));
    boards.push_back(b);
  }
  size_t i = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(simd::table_sum(tables.data(), boards[i++ % boards.size()].data(), 12));
}

void TableScanMobilityCounts(State& state) {
  core::Prng rng(10);
  std::vector<uint64_t> sets(kInputs + 16);
  for (uint64_t& s : sets) s = rng.next() & rng.next();
  int32_t out[16];
  size_t i = 0;
  for (auto _ : state) {
    simd::masked_popcounts(sets.data() + (i++ & (kInputs - 1)), 16, 0x00FFFFFFFFFFFF00ULL, out);
    benchmark::ClobberMemory();
  }
}

void KillerMatch(State& state) {
  core::Prng rng(11);
  uint16_t killers[simd::kKillerListCapacity];
  for (uint16_t& k : killers) k = uint16_t(rng.next());
  std::vector<uint16_t> probes(kInputs);
  for (uint16_t& p : probes) p = rng.below(2) ? killers[rng.below(10)] : uint16_t(rng.next());
  size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(simd::find_move(killers, 10, probes[i++ & (kInputs - 1)]));
}

// A node's quiet moves with history scores (copied in each time: the sort works in place).
void QuietSort(State& state, size_t count) {
  core::Prng rng(14);
  std::vector<int32_t> scores(kInputs * count);
  for (int32_t& v : scores) v = int32_t(rng.below(32001)) - 16000;
  core::Move moves[core::kMaxMoves];
  int32_t work[core::kMaxMoves];
  for (size_t k = 0; k < count; ++k) moves[k] = core::Move(uint16_t(k));
  size_t i = 0;
  for (auto _ : state) {
    const int32_t* from = scores.data() + (i++ & (kInputs - 1)) * count;
    std::copy(from, from + count, work);
    simd::sort_by_score(moves, work, count);
    benchmark::ClobberMemory();
  }
}

// Weight rows of a 768-input first layer of width H, 64-byte aligned as in the engine
// (eval/network.h), picked at random like the features of moves.
std::shared_ptr<const simd::AlignedVector<int16_t>> network_rows(size_t width) {
  auto rows = std::make_shared<simd::AlignedVector<int16_t>>(768 * width);
  core::Prng rng(12);
  for (int16_t& v : *rows) v = int16_t(int(rng.below(401)) - 200);
  return rows;
}

// `changed` rows: 2 for a quiet move, 4 for castling (a capture's 3 costs about as much).
void NetworkUpdate(State& state, size_t width, size_t changed) {
  const auto rows = network_rows(width);
  core::Prng pick(13);
  simd::AlignedVector<int16_t> parent(width, 100), child(width);
  std::vector<const int16_t*> picks(kInputs);
  for (auto& p : picks) p = rows->data() + pick.below(768) * width;
  size_t i = 0;
  for (auto _ : state) {
    const int16_t* const* add = &picks[i & (kInputs - 4)];
    simd::accumulate(child.data(), parent.data(), add, changed / 2, add + 2, changed / 2, width);
    i += 4;
    benchmark::ClobberMemory();
  }
}

void NetworkRefresh(State& state, size_t width) {
  const auto rows = network_rows(width);
  core::Prng pick(14);
  simd::AlignedVector<int16_t> bias(width, 50), out(width);
  std::vector<const int16_t*> picks(kInputs + 32);
  for (auto& p : picks) p = rows->data() + pick.below(768) * width;
  size_t i = 0;
  for (auto _ : state) {
    simd::accumulate(out.data(), bias.data(), &picks[(i++ * 32) & (kInputs - 1)], 32, nullptr, 0, width);
    benchmark::ClobberMemory();
  }
}

void NetworkOutput(State& state, size_t width) {
  core::Prng r(15);
  simd::AlignedVector<int16_t> acc(kInputs + width), weights(width);
  for (int16_t& v : acc) v = int16_t(int(r.below(600)) - 200);
  for (int16_t& v : weights) v = int16_t(int(r.below(255)) - 127);
  size_t i = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(
        simd::screlu_dot(acc.data() + (i++ * 32 & (kInputs - 1)), weights.data(), width, 255));
}

// Registers `function(state, args...)` as "<name>/<impl>", run with `impl` selected.
template <typename Function, typename... Args>
void add(const std::string& name, const std::string& impl, Function function, Args... args) {
  benchmark::RegisterBenchmark((name + "/" + impl).c_str(), [=](State& state) {
    if (!select(impl)) return state.SkipWithError(("no target " + impl).c_str());
    function(state, args...);
  });
}

void register_all(const std::string& impl) {
  for (size_t bytes : {size_t(64) << 10, size_t(4) << 20, size_t(256) << 20}) {
    const std::string size =
        bytes >= (1 << 20) ? std::to_string(bytes >> 20) + "MiB" : std::to_string(bytes >> 10) + "KiB";
    add("tt_probe_bucket/" + size, impl, TtProbeBucket, bytes);
    add("tt_probe_cray/" + size, impl, TtProbeCray, bytes);
  }
  add("slider_attacks/one_square", impl, SliderAttacksOneSquare);
  add("slider_attacks/whole_side", impl, SliderAttacksWholeSide);
  add("move_count/whole_side", impl, MoveCountWholeSide);
  add("child_count/suite_children", impl, ChildCount, 0);
  add("child_count/suite_grandchildren", impl, ChildCount, 1);
  add("serialize/8_targets", impl, Serialize8Targets);
  add("table_scan/12_piece_tables", impl, TableScanPieceTables);
  add("table_scan/16_mobility_counts", impl, TableScanMobilityCounts);
  add("killer_match/10_killers", impl, KillerMatch);
  for (size_t count : {size_t(12), size_t(30), size_t(60)})
    add("quiet_sort/" + std::to_string(count) + "_moves", impl, QuietSort, count);
  // The first networks' H=32, the default network's H=128, and a wider one.
  for (size_t width : {size_t(32), size_t(128), size_t(256)}) {
    const std::string w = std::to_string(width);
    add("network_update/2_rows_H" + w, impl, NetworkUpdate, width, size_t(2));
    add("network_update/4_rows_H" + w, impl, NetworkUpdate, width, size_t(4));
    add("network_refresh/32_rows_H" + w, impl, NetworkRefresh, width);
    add("network_output/H" + w, impl, NetworkOutput, width);
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_all("twin");
  for (const std::string& target : simd::available_targets()) register_all(target);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::AddCustomContext("simd_targets", simd::describe());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
