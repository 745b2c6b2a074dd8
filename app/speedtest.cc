// The speedtest command.
#include "app/speedtest.h"

#include <algorithm>
#include <chrono>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <thread>

#include "app/build_info.h"
#include "app/speedtest_games.h"
#include "book/pgn.h"
#include "core/game.h"
#include "search/threads.h"
#include "search/topology.h"
#include "simd/dispatch.h"

namespace vblitz::app {

int speedtest_hash_mb(int threads) {
  const size_t quarter = std::max<size_t>(search::physical_memory_megabytes() / 4, 1);
  return int(std::min<size_t>(size_t(64) * size_t(threads), std::min<size_t>(quarter, 1 << 20)));
}

SpeedtestOptions default_speedtest_options() {
  SpeedtestOptions o;
  o.threads = int(std::max(1u, std::thread::hardware_concurrency()));
  o.hash_mb = speedtest_hash_mb(o.threads);
  return o;
}

const std::vector<SpeedtestGame>& speedtest_games() {
  static const std::vector<SpeedtestGame> games = [] {
    std::vector<SpeedtestGame> list;
    std::istringstream text(kSpeedtestGames);
    book::PgnReader reader(text);
    book::PgnGame pgn;
    std::string reason;
    while (reader.next(pgn, reason) == book::PgnReader::Status::kGame) {
      SpeedtestGame game;
      book::replay(pgn, [&](const core::Position& pos, core::Move move, int, bool, int) {
        if (game.moves.empty()) game.start_fen = pos.fen();
        game.moves.push_back(pos.to_uci(move));
      });
      list.push_back(game);
    }
    return list;
  }();
  return games;
}

namespace {

using Clock = std::chrono::steady_clock;

int64_t elapsed_ms(Clock::time_point since) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - since).count();
}

// CPU time used by every thread of the process so far, in microseconds.
int64_t process_cpu_us() {
  timespec t{};
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) != 0) return 0;
  return int64_t(t.tv_sec) * 1000000 + t.tv_nsec / 1000;
}

// Plays one game's positions under its clock; adds to `total`; false when stopped.
bool search_game(const SpeedtestGame& game, int64_t game_ms, search::ThreadPool& pool,
                 search::TranspositionTable& tt, SpeedtestResult& total, int total_positions,
                 Clock::time_point start, std::ostream& progress, const std::atomic<bool>& stop) {
  core::Game board;
  board.set_fen(game.start_fen);
  int64_t clock[2] = {game_ms / 2, game_ms / 2};
  const int plies = int(game.moves.size());
  for (int ply = 0; ply < plies; ++ply) {
    const core::Color us = board.position().side_to_move();
    search::Limits limits;
    limits.time[0] = std::max<int64_t>(clock[0], 1);
    limits.time[1] = std::max<int64_t>(clock[1], 1);
    limits.moves_to_go = (plies - ply + 1) / 2;  // this side's remaining moves in the game
    const Clock::time_point move_start = Clock::now();
    const search::Result r = pool.run(board.position(), limits, stop, nullptr);
    clock[us] -= elapsed_ms(move_start);
    if (stop) return false;
    total.nodes += r.nodes;
    total.mean_depth += r.depth;
    ++total.positions;
    if (total.positions % 25 == 0 || total.positions == total_positions) {
      const int64_t ms = std::max<int64_t>(elapsed_ms(start), 1);
      progress << "speedtest: " << total.positions << '/' << total_positions << " positions, " << ms / 1000
               << " s, " << total.nodes * 1000 / uint64_t(ms) << " nodes/s" << std::endl;
    }
    board.play({game.moves[ply]});
  }
  total.hashfull += tt.hashfull();
  ++total.games;
  return true;
}

}  // namespace

SpeedtestResult run_speedtest(const SpeedtestOptions& options, const search::Options& search_options,
                              std::ostream& out, std::ostream& progress, const std::atomic<bool>& stop) {
  search::TranspositionTable tt;
  if (!tt.resize(size_t(options.hash_mb))) {
    out << "info string error: speedtest: cannot allocate a table of " << options.hash_mb << " MB"
        << std::endl;
    SpeedtestResult none;
    none.stopped = true;
    return none;
  }
  search::ThreadPool pool(tt, search_options);
  pool.resize(options.threads);
  const std::vector<SpeedtestGame>& games = speedtest_games();
  int total_positions = 0;
  for (const SpeedtestGame& g : games) total_positions += int(g.moves.size());

  const MachineInfo machine = machine_info();
  out << "info string speedtest threads " << options.threads << ", hash " << options.hash_mb << " MB, "
      << options.seconds << " s, " << total_positions << " positions of " << games.size() << " games, "
      << simd::describe() << std::endl;
  SpeedtestResult total;
  const Clock::time_point start = Clock::now();
  const int64_t cpu_start_us = process_cpu_us();
  for (const SpeedtestGame& game : games) {
    tt.clear();  // a new game, as after ucinewgame
    pool.clear();
    const int64_t game_ms = int64_t(options.seconds) * 1000 * int64_t(game.moves.size()) / total_positions;
    if (!search_game(game, game_ms, pool, tt, total, total_positions, start, progress, stop)) {
      total.stopped = true;
      break;
    }
  }
  total.time_ms = std::max<int64_t>(elapsed_ms(start), 1);
  total.cpu_ms = std::max<int64_t>((process_cpu_us() - cpu_start_us) / 1000, 1);
  if (total.games) total.hashfull /= total.games;
  if (total.positions) total.mean_depth /= total.positions;
  if (total.stopped) out << "info string speedtest stopped\n";
  const uint64_t nps = total.nodes * 1000 / uint64_t(total.time_ms);
  out << "\nCPU: " << machine.cpu_model << " (" << machine.hardware_threads << " hardware threads)\n"
      << "Topology: " << search::machine_topology().summary() << '\n'
      << "Threads: " << options.threads << "\nHash (MB): " << options.hash_mb << '\n'
      << "Positions searched: " << total.positions << '\n'
      << "Mean depth: " << std::fixed << std::setprecision(1) << total.mean_depth << '\n'
      << "Hash use (permille, at the end of each game): " << total.hashfull << '\n'
      << "Total time (ms): " << total.time_ms << '\n'
      << "Nodes searched: " << total.nodes << '\n'
      << "Nodes/second: " << nps << '\n'
      << "Nodes/second per thread: " << nps / uint64_t(options.threads) << '\n'
      << "CPU time (ms): " << total.cpu_ms << '\n'
      << "Nodes/CPU-second: " << total.nodes * 1000 / uint64_t(total.cpu_ms) << std::endl;
  return total;
}

}  // namespace vblitz::app
