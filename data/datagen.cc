// Self-play games for tuning and network data.
#include "data/datagen.h"

#include <omp.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <limits>
#include <memory>
#include <mutex>
#include <numeric>
#include <ostream>
#include <random>
#include <sstream>

#include "book/pgn.h"
#include "core/file.h"
#include "core/game.h"
#include "core/movegen.h"
#include "core/text.h"
#include "data/game_chain.h"
#include "data/packed_position.h"
#include "eval/network.h"
#include "search/search.h"

namespace vblitz::data {

namespace {

constexpr int kWinScore = 1000;      // centipawns ...
constexpr int kWinPlies = 6;         // ... held this many plies in a row wins the game
constexpr int kQuietDrawScore = 10;  // |score| at most this ...
constexpr int kQuietDrawPlies = 20;  // ... this many plies in a row after move 40 draws it
constexpr size_t kTableMegabytes = 16;

// One kept position: the text line's FEN or the packed record (its result filled in at the end)
// and the number of moves played before it.
struct Sample {
  std::string fen;
  PackedPosition packed;
  int ply = 0;
};

struct GameRecord {
  std::vector<Sample> samples;
  std::string result;  // "1-0", "0-1", "1/2-1/2"; empty when the game was dropped
  std::string pgn;
  std::string bytes;        // packed formats: the game's records, 32 bytes each or chain entries
  bool unbalanced = false;  // dropped: its first searched position scored too much
};

// The searchers of one thread: one plays, the other tests positions for quietness on a table
// it empties first, so that the test depends on the position alone.
struct Players {
  search::TranspositionTable play_tt, check_tt;
  search::Options options;
  search::Searcher player{play_tt, options}, checker{check_tt, options};
  ChainWriter chain;
  explicit Players(search::EvalMode eval_mode) {
    options.eval_mode = eval_mode;
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

// Whether a searched position goes into network data: not in check, a quiet best move, no
// mate score, far enough into the game.
bool keep_for_network(const core::Position& pos, const search::Result& r, int plies,
                      const DatagenOptions& o) {
  return !pos.in_check() && !pos.is_capture(r.best) && r.best.kind() != core::Move::PROMOTION &&
         !search::is_mate_score(r.score) && plies >= o.min_ply;
}

// Plays game `index` of the run (a function of the seed and the index alone) with the thread's
// players.
GameRecord play_game(int index, const std::string& opening, const DatagenOptions& options, Players& players) {
  const bool packed = options.format != DataFormat::kText;
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
  GameRecord record;
  Adjudicator adjudicator;
  const std::atomic<bool> stop{false};
  search::Limits limits;
  limits.nodes = std::max<uint64_t>(
      1, options.nodes * (80 + rng() % 41) / 100);  // 80-120%: games from one opening differ
  std::string& result = record.result;
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
    if (!packed && players.quiet(pos)) record.samples.push_back({pos.fen(), {}});
    tt.new_search();
    const search::Result r = searcher.run(pos, limits, stop, nullptr);
    const int white_score = pos.side_to_move() == core::WHITE ? r.score : -r.score;
    if (packed && int(moves.size()) == options.random_plies &&
        std::abs(r.score) > options.max_opening_score) {
      GameRecord dropped;  // an unbalanced start teaches little
      dropped.unbalanced = true;
      return dropped;
    }
    if (packed && keep_for_network(pos, r, int(moves.size()), options))
      record.samples.push_back(
          {"", PackedPosition::pack(pos, white_score, GameResult::kDraw), int(moves.size())});
    const std::string adjudged = adjudicator.after_search(white_score, int(moves.size()));
    play(r.best);
    result = adjudged;
  }
  const GameResult outcome = result == "1-0"   ? GameResult::kWhiteWins
                             : result == "0-1" ? GameResult::kBlackWins
                                               : GameResult::kDraw;
  for (Sample& s : record.samples) s.packed.bytes[28] = uint8_t(outcome);
  // The game's records in the run's format: chain entries from the moves played between them.
  for (size_t i = 0; i < record.samples.size(); ++i) {
    const Sample& s = record.samples[i];
    if (options.format == DataFormat::kChain) {
      const int from = i ? record.samples[i - 1].ply : s.ply;
      players.chain.add(s.packed, moves.data() + from, s.ply - from);
    } else if (options.format == DataFormat::kPacked) {
      record.bytes.append(reinterpret_cast<const char*>(s.packed.bytes.data()), s.packed.bytes.size());
    }
  }
  if (options.format == DataFormat::kChain) record.bytes = players.chain.take();
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

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// "1h02m03s"
std::string duration_text(double seconds) {
  const long s = long(seconds);
  std::ostringstream out;
  out << s / 3600 << 'h' << std::setw(2) << std::setfill('0') << s / 60 % 60 << 'm' << std::setw(2) << s % 60
      << 's';
  return out.str();
}

// Where the threads' time went: playing games (the searches and the game's encoding) or not
// (waiting for the queue's lock, writing files, starting and ending).
struct ThreadTime {
  double playing = 0, wall = 0;
  int threads = 0;
  std::string error;  // why the run stopped early, when a game failed
  std::string text() const {
    std::ostringstream out;
    const double total = wall * threads;
    out << std::fixed << std::setprecision(1) << threads << " threads, "
        << (total > 0 ? 100 * (1 - playing / total) : 0.0) << "% of their time outside games";
    return out.str();
  }
};

// The games of a run, in units of `unit_games` consecutive games (a shard file, or a block of a
// text file's lines): the units in `todo` are played by `threads` threads that each take the next
// game from one queue, so no thread waits for another's game. A unit goes to `write(unit,
// games)` as soon as it and every unit before it in `todo` are whole, under one lock, in order;
// `write` returns false to end the run. Each game depends on the seed and its index alone.
template <class Write>
bool play_units(const std::vector<int>& todo, int unit_games, int total_games,
                const std::vector<std::string>& openings, const DatagenOptions& options, int threads,
                Write write, ThreadTime& time) {
  struct Unit {
    std::vector<GameRecord> games;
    int done = 0;
  };
  const auto games_in = [&](int unit) { return std::min(unit_games, total_games - unit * unit_games); };
  std::vector<Unit> units(todo.size());
  size_t next_to_write = 0;
  std::mutex lock;
  std::atomic<long> next_game{0};
  std::atomic<bool> failed{false};
  const long slots = long(todo.size()) * unit_games;
  const auto start = std::chrono::steady_clock::now();
  double playing = 0;
  int team = 1;
#pragma omp parallel num_threads(threads) reduction(+ : playing)
  {
#pragma omp single
    team = omp_get_num_threads();
    std::unique_ptr<Players> players;
    try {
      players = std::make_unique<Players>(options.eval_mode);
    } catch (const std::exception&) {  // no memory for this thread's tables: the others play on
    }
    for (long slot; players && !failed && (slot = next_game++) < slots;) {
      const size_t u = size_t(slot / unit_games);
      const int game = int(slot % unit_games), unit = todo[u];
      if (game >= games_in(unit)) continue;
      const int index = unit * unit_games + game;
      std::mt19937_64 pick(options.seed + uint64_t(index));
      const std::string& opening = openings[pick() % openings.size()];
      const auto started = std::chrono::steady_clock::now();
      GameRecord record;
      try {
        record = play_game(index, opening, options, *players);
      } catch (const std::exception& e) {
        const std::lock_guard<std::mutex> guard(lock);
        if (!failed.exchange(true)) time.error = "game " + std::to_string(index) + ": " + e.what();
        break;
      }
      playing += seconds_since(started);
      const std::lock_guard<std::mutex> guard(lock);
      Unit& mine = units[u];
      if (mine.games.empty()) mine.games.resize(size_t(games_in(unit)));
      mine.games[size_t(game)] = std::move(record);
      ++mine.done;
      for (; !failed && next_to_write < todo.size(); ++next_to_write) {
        Unit& first = units[next_to_write];
        if (first.done < games_in(todo[next_to_write])) break;
        if (!write(todo[next_to_write], first.games)) failed = true;
        first = Unit();
      }
    }
  }
  time.playing += playing;
  time.wall += seconds_since(start);
  time.threads = team;
  if (!failed && next_to_write < todo.size()) time.error = "no thread could start its players";
  return !failed && next_to_write == todo.size();
}

// The options that decide a packed run's games; a resumed run must repeat them exactly.
std::string run_signature(const DatagenOptions& o) {
  std::ostringstream out;
  out << "seed " << o.seed << "\nnodes " << o.nodes << "\nrandom-plies " << o.random_plies << "\nopenings "
      << (o.openings_path.empty() ? "startpos" : std::filesystem::path(o.openings_path).filename().string())
      << "\nmin-ply " << o.min_ply << "\nmax-opening-score " << o.max_opening_score << "\nshard-games "
      << o.shard_games << '\n';
  if (o.eval_mode == search::EvalMode::kNetwork)
    out << "eval network " << eval::active_network_name() << '\n';
  if (o.format == DataFormat::kChain) out << "format chain\n";
  return out.str();
}

int run_text(const DatagenOptions& options, const std::vector<std::string>& openings, int threads,
             std::ostream& log, long& positions) {
  std::ofstream data(options.out_path);
  std::ofstream pgn;
  if (!options.pgn_path.empty()) pgn.open(options.pgn_path);
  if (!data || (!options.pgn_path.empty() && !pgn)) return log << "cannot write the output files\n", 1;
  const auto start = std::chrono::steady_clock::now();
  constexpr int kBlockGames = 16;  // games written at a time, in order
  std::vector<int> todo((options.games + kBlockGames - 1) / kBlockGames);
  std::iota(todo.begin(), todo.end(), 0);
  ThreadTime time;
  int written = 0;
  const bool whole = play_units(
      todo, kBlockGames, options.games, openings, options, threads,
      [&](int, const std::vector<GameRecord>& games) {
        for (const GameRecord& r : games) {
          const std::string label = r.result == "1-0" ? "[1.0]" : r.result == "0-1" ? "[0.0]" : "[0.5]";
          for (const Sample& s : r.samples) data << s.fen << ' ' << label << '\n';
          pgn << r.pgn;
          positions += long(r.samples.size());
        }
        written += int(games.size());
        log << "games " << written << "/" << options.games << ", positions " << positions << ", "
            << written / std::max(seconds_since(start), 1e-3) << " games/s, " << threads << " threads\n";
        return bool(data);
      },
      time);
  if (!time.error.empty()) log << "datagen stopped: " << time.error << '\n';
  log << "done: " << written << " games, " << time.text() << '\n';
  return whole && data && (options.pgn_path.empty() || pgn) ? 0 : 1;
}

int run_packed(const DatagenOptions& options, const std::vector<std::string>& openings, int threads,
               std::ostream& log, long& positions) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(options.out_path, ec);
  if (!fs::is_directory(options.out_path))
    return log << "cannot create directory '" << options.out_path << "'\n", 1;
  const std::string signature = run_signature(options);
  const fs::path signature_path =
      fs::path(options.out_path) / ("seed" + std::to_string(options.seed) + ".run");
  if (fs::exists(signature_path)) {
    std::ifstream in(signature_path);
    std::stringstream old;
    old << in.rdbuf();
    if (old.str() != signature)
      return log << "'" << signature_path.string() << "' records other options for this seed:\n"
                 << old.str() << "use them to resume, or another seed\n",
             1;
  } else if (!(std::ofstream(signature_path) << signature)) {
    return log << "cannot write '" << signature_path.string() << "'\n", 1;
  }

  const int shards = (options.games + options.shard_games - 1) / options.shard_games;
  std::vector<int> todo;
  for (int shard = 0; shard < shards; ++shard)
    if (!fs::exists(shard_path(options, shard))) todo.push_back(shard);
  const int done_before = shards - int(todo.size());
  const auto start = std::chrono::steady_clock::now();
  long dropped = 0;
  int played = 0;
  ThreadTime time;
  const bool whole = play_units(
      todo, options.shard_games, shards * options.shard_games, openings, options, threads,
      [&](int shard, const std::vector<GameRecord>& games) {
        std::string bytes = options.format == DataFormat::kChain ? std::string(kChainMagic) : std::string();
        for (const GameRecord& r : games) {
          dropped += r.unbalanced;
          bytes += r.bytes;
          positions += long(r.samples.size());
        }
        const std::string path = shard_path(options, shard);
        const std::string partial = path + ".partial";  // renamed when whole, so a stop loses no shard
        std::error_code error;
        {
          std::ofstream out(partial, std::ios::binary);
          if (!out.write(bytes.data(), std::streamsize(bytes.size())) || !out.flush())
            return log << "cannot write '" << partial << "'\n", false;
        }
        fs::rename(partial, path, error);
        if (error) return log << "cannot rename '" << partial << "': " << error.message() << '\n', false;
        ++played;
        const double seconds = seconds_since(start);
        const int left = int(todo.size()) - played;
        log << "shard " << shard + 1 << "/" << shards << " (" << done_before << " done before), games "
            << played * options.shard_games << " (" << dropped << " unbalanced openings dropped), positions "
            << positions << ", " << long(double(positions) / std::max(seconds, 1e-3))
            << " positions/s, about " << duration_text(seconds / played * left) << " left\n"
            << std::flush;
        return true;
      },
      time);
  if (!whole) return log << "datagen stopped" << (time.error.empty() ? "" : ": " + time.error) << '\n', 1;
  log << "done: " << shards << " shards in '" << options.out_path << "', " << positions << " new positions, "
      << time.text() << '\n';
  return 0;
}

}  // namespace

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

std::string Adjudicator::after_search(int white_score, int plies) {
  winning_streak_ = std::abs(white_score) >= kWinScore ? winning_streak_ + 1 : 0;
  quiet_streak_ = std::abs(white_score) <= kQuietDrawScore && plies >= 80 ? quiet_streak_ + 1 : 0;
  if (quiet_streak_ >= kQuietDrawPlies) return "1/2-1/2";
  if (winning_streak_ >= kWinPlies) return white_score > 0 ? "1-0" : "0-1";
  return "";
}

std::string datagen_usage() {
  return "usage: vblitz datagen OUT [--format text|packed|chain] [--games N] [--nodes N] [--openings FILE] "
         "[--pgn FILE] [--random-plies N] [--threads N] [--seed N] [--min-ply N] [--max-opening-score CP] "
         "[--shard-games N]\n(the global flags --eval-mode network and --eval-file FILE choose the players' "
         "evaluation)";
}

std::string shard_path(const DatagenOptions& options, int shard) {
  char name[64];
  std::snprintf(name, sizeof name, "seed%llu-%06d.%s", static_cast<unsigned long long>(options.seed), shard,
                options.format == DataFormat::kChain ? "vbc" : "vbd");
  return (std::filesystem::path(options.out_path) / name).string();
}

std::optional<std::string> parse_datagen_args(const std::vector<std::string>& args, DatagenOptions& o) {
  const auto error = core::parse_flag_pairs(
      args, std::string("datagen needs an output file"), o.out_path,
      [&](const std::string& flag, const std::string& value) -> std::optional<std::string> {
        auto number = [&](long lo, long hi) { return core::parse_long(value, lo, hi); };
        std::optional<long> v;
        if (flag == "--pgn") {
          o.pgn_path = value;
        } else if (flag == "--openings") {
          o.openings_path = value;
        } else if (flag == "--format" && (value == "text" || value == "packed" || value == "chain")) {
          o.format = value == "text"     ? DataFormat::kText
                     : value == "packed" ? DataFormat::kPacked
                                         : DataFormat::kChain;
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
        } else if (flag == "--min-ply" && (v = number(0, 1000))) {
          o.min_ply = int(*v);
        } else if (flag == "--max-opening-score" && (v = number(0, 30000))) {
          o.max_opening_score = int(*v);
        } else if (flag == "--shard-games" && (v = number(1, 1000000))) {
          o.shard_games = int(*v);
        } else {
          return "bad argument " + core::quote(flag + " " + value);
        }
        return std::nullopt;
      });
  if (error) return error;
  if (o.format != DataFormat::kText && !o.pgn_path.empty())
    return std::string("--pgn goes with --format text");
  return std::nullopt;
}

int run_datagen(const DatagenOptions& options, std::ostream& log, long* positions) {
  std::vector<std::string> openings = {core::Position::kStartFen};
  if (!options.openings_path.empty()) {
    if (auto error = core::check_input_file(options.openings_path))
      return log << "--openings: " << *error << '\n', 1;
    openings = read_openings(options.openings_path);
    if (openings.empty()) return log << "no openings in '" << options.openings_path << "'\n", 1;
  }
  const int threads = options.threads > 0 ? options.threads : omp_get_max_threads();
  long written = 0;
  const int status = options.format == DataFormat::kText
                         ? run_text(options, openings, threads, log, written)
                         : run_packed(options, openings, threads, log, written);
  if (positions) *positions += written;
  return status;
}

}  // namespace vblitz::data
