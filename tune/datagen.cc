// Self-play games for tuning data.
#include "tune/datagen.h"

#include <omp.h>

#include <chrono>
#include <fstream>
#include <ostream>
#include <random>

#include "book/pgn.h"
#include "core/game.h"
#include "core/movegen.h"
#include "search/search.h"

namespace vblitz::tune {

namespace {

constexpr int kMaxGamePlies = 400;   // longer games are drawn
constexpr int kWinScore = 1000;      // centipawns ...
constexpr int kWinPlies = 6;         // ... held this many plies in a row wins the game
constexpr int kQuietDrawScore = 10;  // |score| at most this ...
constexpr int kQuietDrawPlies = 20;  // ... this many plies in a row after move 40 draws it
constexpr size_t kTableMegabytes = 16;

struct GameRecord {
  std::string data;  // "FEN [r]" lines
  std::string pgn;
  int positions = 0;
};

// Reads the FEN part (first four fields) of every line of an EPD or FEN file.
std::vector<std::string> read_openings(const std::string& path) {
  std::vector<std::string> fens;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string fen, field;
    for (int i = 0; i < 4 && words >> field; ++i) fen += (i ? " " : "") + field;
    if (!fen.empty()) fens.push_back(fen);
  }
  return fens;
}

// Plays one game; thread-private searcher and table.
// The searchers of one thread: one plays, the other tests positions for quietness on a table
// it empties first, so that the test depends on the position alone.
struct Players {
  search::TranspositionTable play_tt, check_tt;
  search::Options options;
  search::Searcher player{play_tt, options}, checker{check_tt, options};
  Players() {
    play_tt.resize(kTableMegabytes);
    check_tt.resize(1);
  }
  bool quiet(const core::Position& pos) {
    core::Game fresh;  // without the game's history: repetitions must not decide
    fresh.set_fen(pos.fen());
    check_tt.clear();
    return checker.quiet_eval(fresh.position()).has_value();
  }
};

GameRecord play_game(int index, const std::string& opening, const DatagenOptions& options, Players& players) {
  search::TranspositionTable& tt = players.play_tt;
  search::Searcher& searcher = players.player;
  std::mt19937_64 rng(options.seed * 0x9E3779B97F4A7C15ULL + uint64_t(index));
  core::Game game;
  if (game.set_fen(opening)) return {};
  const std::string start_fen = game.position().fen();
  std::vector<core::Move> moves;
  auto play = [&](core::Move m) {
    moves.push_back(m);
    game.play({game.position().to_uci(m)});
  };
  for (int i = 0; i < options.random_plies; ++i) {
    core::MoveList<core::LEGAL> legal(game.position());
    if (legal.size() == 0) return {};
    play(*(legal.begin() + long(rng() % legal.size())));
  }
  tt.clear();
  searcher.clear();
  std::vector<std::string> quiet_fens;
  std::string result;
  int winning_streak = 0, quiet_streak = 0;
  const std::atomic<bool> stop{false};
  search::Limits limits;
  limits.nodes = std::max<uint64_t>(
      1, options.nodes * (80 + rng() % 41) / 100);  // 80-120%: games from one opening differ
  while (result.empty()) {
    core::Position& pos = game.position();
    if (core::MoveList<core::LEGAL>(pos).size() == 0) {
      result = !pos.in_check() ? "1/2-1/2" : pos.side_to_move() == core::WHITE ? "0-1" : "1-0";
      break;
    }
    if (pos.is_draw(0) || int(moves.size()) >= kMaxGamePlies) {
      result = "1/2-1/2";
      break;
    }
    if (players.quiet(pos)) quiet_fens.push_back(pos.fen());
    tt.new_search();
    const search::Result r = searcher.run(pos, limits, stop, nullptr);
    const int white_score = pos.side_to_move() == core::WHITE ? r.score : -r.score;
    winning_streak = std::abs(white_score) >= kWinScore ? winning_streak + 1 : 0;
    quiet_streak = std::abs(white_score) <= kQuietDrawScore && moves.size() >= 80 ? quiet_streak + 1 : 0;
    play(r.best);
    if (winning_streak >= kWinPlies) result = white_score > 0 ? "1-0" : "0-1";
    if (quiet_streak >= kQuietDrawPlies) result = "1/2-1/2";
  }
  GameRecord record;
  const std::string label = result == "1-0" ? "[1.0]" : result == "0-1" ? "[0.0]" : "[0.5]";
  for (const std::string& fen : quiet_fens) record.data += fen + ' ' + label + '\n';
  record.positions = int(quiet_fens.size());
  if (!options.pgn_path.empty())
    record.pgn = book::write_pgn({{"Event", "VBlitz datagen"},
                                  {"Site", "?"},
                                  {"Date", "????.??.??"},
                                  {"Round", std::to_string(index + 1)},
                                  {"White", "VBlitz"},
                                  {"Black", "VBlitz"},
                                  {"Result", result}},
                                 start_fen, moves, result);
  return record;
}

}  // namespace

std::optional<std::string> parse_datagen_args(const std::vector<std::string>& args, DatagenOptions& o) {
  if (args.empty() || args[0].rfind("--", 0) == 0) return std::string("datagen needs an output file");
  o.out_path = args[0];
  for (size_t i = 1; i < args.size(); i += 2) {
    if (i + 1 >= args.size()) return args[i] + " needs a value";
    const std::string& flag = args[i];
    const std::string& value = args[i + 1];
    auto number = [&](long lo, long hi) -> std::optional<long> {
      try {
        size_t used = 0;
        long v = std::stol(value, &used);
        if (used == value.size() && v >= lo && v <= hi) return v;
      } catch (...) {
      }
      return std::nullopt;
    };
    std::optional<long> v;
    if (flag == "--pgn") {
      o.pgn_path = value;
    } else if (flag == "--openings") {
      o.openings_path = value;
    } else if (flag == "--games" && (v = number(1, 100000000))) {
      o.games = int(*v);
    } else if (flag == "--nodes" && (v = number(1, 1L << 40))) {
      o.nodes = uint64_t(*v);
    } else if (flag == "--random-plies" && (v = number(0, 40))) {
      o.random_plies = int(*v);
    } else if (flag == "--threads" && (v = number(1, 1024))) {
      o.threads = int(*v);
    } else if (flag == "--seed" && (v = number(0, std::numeric_limits<long>::max()))) {
      o.seed = uint64_t(*v);
    } else {
      return "bad argument '" + flag + " " + value + "'";
    }
  }
  return std::nullopt;
}

int run_datagen(const DatagenOptions& options, std::ostream& log) {
  std::vector<std::string> openings = {core::Position::kStartFen};
  if (!options.openings_path.empty()) {
    openings = read_openings(options.openings_path);
    if (openings.empty()) return log << "no openings in '" << options.openings_path << "'\n", 1;
  }
  std::ofstream data(options.out_path);
  std::ofstream pgn;
  if (!options.pgn_path.empty()) pgn.open(options.pgn_path);
  if (!data || (!options.pgn_path.empty() && !pgn)) return log << "cannot write the output files\n", 1;

  const int threads = options.threads > 0 ? options.threads : omp_get_max_threads();
  const auto start = std::chrono::steady_clock::now();
  const int chunk = 16 * threads;  // games played in parallel, then written in order
  long positions = 0;
  for (int first = 0; first < options.games; first += chunk) {
    const int count = std::min(chunk, options.games - first);
    std::vector<GameRecord> records(size_t(count), GameRecord{});
#pragma omp parallel num_threads(threads)
    {
      Players players;
#pragma omp for schedule(dynamic)
      for (int i = 0; i < count; ++i) {
        std::mt19937_64 pick(options.seed + uint64_t(first + i));
        const std::string& opening = openings[pick() % openings.size()];
        records[size_t(i)] = play_game(first + i, opening, options, players);
      }
    }
    for (const GameRecord& r : records) {
      data << r.data;
      pgn << r.pgn;
      positions += r.positions;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    log << "games " << first + count << "/" << options.games << ", positions " << positions << ", "
        << (first + count) / seconds << " games/s, " << threads << " threads\n";
  }
  return data && (options.pgn_path.empty() || pgn) ? 0 : 1;
}

}  // namespace vblitz::tune
