// UCI command handling. Every malformed line is answered with "info string error: <reason>"
// and leaves the engine's position and options as they were.
#include "uci/uci.h"

#include <charconv>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <system_error>
#include <vector>

#include "core/file.h"
#include "core/movegen.h"
#include "core/perft.h"
#include "core/text.h"
#include "eval/evaluate.h"
#include "search/cluster.h"
#include "simd/dispatch.h"
#include "uci/bench.h"
#include "uci/options.h"
#include "uci/report.h"

#ifndef VBLITZ_VERSION
#define VBLITZ_VERSION "dev"
#endif

namespace vblitz::uci {

namespace {

constexpr size_t kMaxLineLength = 1 << 20;
constexpr uintmax_t kMaxParamFileBytes = 1 << 24;  // parameter files are a few KB

std::vector<std::string> split_words(std::string_view text) {
  std::vector<std::string> words;
  std::istringstream in{std::string(text)};
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

// Splits "command rest of line" into its first word and the remainder.
std::pair<std::string_view, std::string_view> first_word(std::string_view line) {
  size_t start = line.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos) return {{}, {}};
  size_t end = line.find_first_of(" \t\r\n", start);
  if (end == std::string_view::npos) return {line.substr(start), {}};
  return {line.substr(start, end - start), line.substr(end + 1)};
}

std::string trim(std::string_view s) {
  size_t a = s.find_first_not_of(" \t\r\n"), b = s.find_last_not_of(" \t\r\n");
  return a == std::string_view::npos ? std::string() : std::string(s.substr(a, b - a + 1));
}

bool parse_bool(const std::string& text, bool& value) {
  std::string v = core::to_lower(text);
  if (v != "true" && v != "false") return false;
  value = v == "true";
  return true;
}

}  // namespace

bool parse_spin(const SpinOption& option, std::string_view text, long& value) {
  return parse_int(text, option.min, option.max, value);
}

bool parse_clamped(std::string_view text, long& value) {
  if (text.empty()) return false;
  const bool negative = text[0] == '-';
  const std::string_view digits = text.substr(negative || text[0] == '+');
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos) return false;
  long v = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec == std::errc::result_out_of_range) v = std::numeric_limits<long>::max();
  value = negative ? -v : v;
  return true;
}

bool parse_int(std::string_view text, long lo, long hi, long& value) {
  long v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v < lo || v > hi) return false;
  value = v;
  return true;
}

void print_perft(core::Position& pos, int depth, std::ostream& out, const std::atomic<bool>* stop,
                 int threads) {
  auto start = std::chrono::steady_clock::now();
  // In a cluster run each process counts its share; the counts, and how many processes
  // finished each root move, are added over all of them.
  const core::MoveList<core::LEGAL> roots(pos);
  std::vector<uint64_t> counts(2 * roots.size(), 0);
  const auto share = core::perft_divide(pos, depth, stop, threads, {cluster::rank(), cluster::ranks()});
  for (size_t i = 0; i < share.size(); ++i) counts[i] = share[i].second, counts[roots.size() + i] = 1;
  cluster::sum(counts);
  uint64_t total = 0;
  for (size_t i = 0; i < roots.size() && counts[roots.size() + i] == uint64_t(cluster::ranks()); ++i) {
    out << pos.to_uci(roots.begin()[i]) << ": " << counts[i] << '\n';
    total += counts[i];
  }
  if (stop && stop->load()) {
    out << "info string perft stopped" << std::endl;
    return;
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out << "\nNodes searched: " << total << '\n';
  out << "Time (ms): " << std::llround(seconds * 1000) << '\n';
  out << "Nodes/second: " << std::llround(double(total) / std::max(seconds, 1e-9)) << std::endl;
}

Engine::Engine(std::ostream& out) : out_(out) { apply_parameters(); }

Engine::~Engine() { stop_search(); }

void Engine::say(const std::string& text) {
  std::lock_guard<std::mutex> lock(out_mutex_);
  out_ << text << std::endl;
}

bool Engine::handle(std::string_view line) {
  try {
    return dispatch(line);
  } catch (const std::bad_alloc&) {
    error("not enough memory for '" + std::string(first_word(line).first.substr(0, 64)) +
          "'; the command was abandoned");
    return true;
  } catch (const std::system_error& e) {  // e.g. the system refused a new thread
    error("'" + std::string(first_word(line).first.substr(0, 64)) + "' failed: " + e.what());
    return true;
  }
}

bool Engine::dispatch(std::string_view line) {
  if (line.size() > kMaxLineLength) {
    error("line of " + std::to_string(line.size()) + " characters is too long");
    return true;
  }
  auto [command, args] = first_word(line);
  if (command.empty()) return true;
  if (command == "quit") {
    stop_search();
    return false;
  }
  if (command == "isready") {
    say("readyok");
  } else if (command == "stop") {
    stop_search();
  } else if (command == "ponderhit") {
    ponderhit_ = true;
  } else if (command == "uci") {
    cmd_uci();
  } else {
    // Everything else changes or reads the game: finish any search first.
    stop_search();
    if (command == "ucinewgame") {
      game_.set_fen(core::Position::kStartFen, chess960_);
      tt_.clear();
      pool_.clear();
    } else if (command == "position")
      cmd_position(args);
    else if (command == "go")
      cmd_go(args);
    else if (command == "setoption")
      cmd_setoption(args);
    else if (command == "d")
      cmd_display();
    else if (command == "eval")
      cmd_eval();
    else if (command == "perft")
      cmd_perft(args);
    else if (command == "bench")
      cmd_bench(args);
    else
      error("unknown command '" + std::string(command.substr(0, 64)) + "'");
  }
  return true;
}

void Engine::cmd_uci() {
  say("id name VBlitz " VBLITZ_VERSION);
  say("id author the VBlitz developers");
  say(kHashOption.declaration());
  say(kThreadsOption.declaration());
  say("option name Clear Hash type button");
  say("option name Ponder type check default false");
  say(kMoveOverheadOption.declaration());
  say("option name UCI_Chess960 type check default false");
  say("option name UCI_ShowWDL type check default false");
  say(kMultiPvOption.declaration());
  say("option name Kernels type combo default vector var vector var scalar var all-vector");
  std::string targets = "option name SimdTarget type combo default best var best";
  for (const std::string& t : simd::available_targets()) targets += " var " + t;
  say(targets);
  say("option name TTLayout type combo default bucket var bucket var cray");
  say("option name ParamFile type string default <empty>");
  say("option name ParamBlock type combo default auto var auto var default var e4 var d4 var flank");
  say("option name OwnBook type check default false");
  say("option name BookFile type string default <empty>");
  say(kBookDepthOption.declaration());
  say(kBookVarietyOption.declaration());
  say("option name ExtendedBook type string default <empty>");
  for (const SpinOption& style : kStyleOptions) say(style.declaration());
  say(kContemptOption.declaration());
  say(kKillersOption.declaration());
  say("option name DrawByPly type check default false");
  say("option name DelayPenalty type check default false");
  say(std::string("option name EvalMode type combo default ") +
      search::eval_mode_name(search::kDefaultEvalMode) + " var classic var network");
  say("option name EvalFile type string default <empty>");
  if (cluster::ranks() > 1) {
    say(kClusterShareDepthOption.declaration());
    say("option name ClusterExchange type combo default ring var ring var allgather");
  }
  say("uciok");
}

void Engine::cmd_position(std::string_view args) {
  std::vector<std::string> words = split_words(args);
  if (words.empty()) return error("position needs 'startpos' or 'fen <FEN>'");
  size_t i = 1;
  std::string fen;
  if (words[0] == "startpos") {
    fen = core::Position::kStartFen;
  } else if (words[0] == "fen") {
    for (; i < words.size() && words[i] != "moves"; ++i) fen += words[i] + ' ';
  } else {
    return error("position needs 'startpos' or 'fen <FEN>', not '" + words[0].substr(0, 64) + "'");
  }
  if (i < words.size() && words[i] != "moves")
    return error("unexpected '" + words[i].substr(0, 64) + "' after position startpos");
  core::Game next;
  if (auto err = next.set_fen(fen, chess960_)) return error("bad FEN: " + *err);
  // The opening family needs the standard start (the move counters aside).
  auto without_counters = [](const std::string& f) { return f.substr(0, f.rfind(' ', f.rfind(' ') - 1)); };
  const bool standard_start =
      without_counters(next.position().fen()) == without_counters(core::Position::kStartFen);
  std::vector<std::string> moves;
  if (i < words.size()) moves.assign(words.begin() + long(i) + 1, words.end());
  if (auto err = next.play(moves)) return error("position: " + *err);
  game_ = std::move(next);
  first_move_ = standard_start && !moves.empty() ? moves[0] : "";
}

void Engine::cmd_go(std::string_view args) {
  std::vector<std::string> w = split_words(args);
  if (!w.empty() && w[0] == "perft") {
    if (w.size() != 2) return error("usage: go perft <depth>");
    return cmd_perft(w[1]);
  }
  search::Limits limits;
  limits.start = std::chrono::steady_clock::now();
  bool ignored_field = false;
  auto ignore = [&](const std::string& why) {
    error("go: " + why + "; ignored");
    ignored_field = true;
  };
  for (size_t i = 0; i < w.size(); ++i) {
    const std::string& key = w[i];
    if (key == "infinite") {
      limits.infinite = true;
      continue;
    }
    if (key == "ponder") {
      limits.ponder = true;
      continue;
    }
    if (key == "searchmoves") {
      for (++i; i < w.size(); ++i) {
        core::Move m = game_.position().parse_uci(w[i]);
        if (m == core::Move::none())
          ignore("searchmoves: '" + w[i].substr(0, 16) + "' is not a legal move");
        else
          limits.search_moves.push_back(m);
      }
      break;
    }
    static const char* const kNumeric[] = {"wtime",    "btime", "winc",  "binc", "movestogo",
                                           "movetime", "depth", "nodes", "mate"};
    if (std::find(std::begin(kNumeric), std::end(kNumeric), key) == std::end(kNumeric)) {
      ignore("unknown parameter '" + key.substr(0, 32) + "'");
      long skipped = 0;
      if (i + 1 < w.size() &&
          parse_int(w[i + 1], std::numeric_limits<long>::min(), std::numeric_limits<long>::max(), skipped))
        ++i;
      continue;
    }
    long v = 0;
    if (i + 1 >= w.size() || !parse_clamped(w[i + 1], v)) {
      ignore(key +
             (i + 1 >= w.size() ? " needs a value" : ": '" + w[i + 1].substr(0, 32) + "' is not a number"));
      i += i + 1 < w.size();
      continue;
    }
    ++i;
    // Out-of-range values (a GUI's negative clock after a slight overstep, movestogo 0) are
    // clamped to the nearest meaningful one and searched with.
    constexpr long kMaxTime = 1L << 40;
    if (key == "wtime" || key == "btime")
      limits.time[key == "wtime" ? core::WHITE : core::BLACK] = std::clamp(v, 0L, kMaxTime);
    else if (key == "winc" || key == "binc")
      limits.increment[key == "winc" ? core::WHITE : core::BLACK] = std::clamp(v, 0L, kMaxTime);
    else if (key == "movestogo")
      limits.moves_to_go = v > 0 ? int(std::min(v, 100000L)) : 0;  // 0: not given
    else if (key == "movetime")
      limits.move_time = std::clamp(v, 1L, kMaxTime);
    else if (key == "depth")
      limits.depth = int(std::clamp(v, 1L, long(search::kMaxPly - 1)));
    else if (key == "nodes")
      limits.nodes = uint64_t(std::max(v, 1L));
    else
      limits.mate = int(std::clamp(v, 1L, long(search::kMaxPly / 2)));
  }
  const bool bounded = limits.uses_clock() || limits.move_time || limits.depth || limits.nodes || limits.mate;
  if (ignored_field && !bounded && !limits.infinite && !limits.ponder) {
    limits.move_time = kFallbackMoveTime;
    say("info string go: nothing left to limit the search; searching as go movetime " +
        std::to_string(kFallbackMoveTime));
  }
  const core::Color us = game_.position().side_to_move();
  if (limits.uses_clock() && limits.time[us] < 0)
    say(std::string("info string go: no ") + (us == core::WHITE ? "wtime" : "btime") +
        "; the other side's clock stands in for it");
  if (play_book_move(limits)) return;
  select_param_block();
  if (!extended_book_.empty() && limits.search_moves.empty()) {
    std::string line;
    for (const book::Bonus& b : extended_book_.bonuses(game_.position())) {
      limits.root_bonus.emplace_back(b.move, b.centipawns);
      line += ' ' + game_.position().to_uci(b.move) + (b.centipawns >= 0 ? " +" : " ") +
              std::to_string(b.centipawns);
    }
    if (!line.empty()) say("info string extended book bonus" + line);
  }
  start_search(limits);
}

bool Engine::play_book_move(const search::Limits& limits) {
  const core::Position& pos = game_.position();
  if (!own_book_ || book_.empty() || limits.infinite || limits.ponder || limits.mate ||
      !limits.search_moves.empty() || pos.game_ply() >= 2 * book_depth_)
    return false;
  const core::Move m = book_.choose(pos, book_variety_, book_rng_);
  if (m == core::Move::none()) return false;
  int weight = 0, total = 0;
  for (const book::BookMove& b : book_.moves(pos)) {
    total += b.weight;
    if (b.move == m) weight = b.weight;
  }
  say("info string book move " + pos.to_uci(m) + " (weight " + std::to_string(weight) + " of " +
      std::to_string(total) + ")");
  say("bestmove " + pos.to_uci(m));
  return true;
}

void Engine::select_param_block() {
  eval::Family family = eval::Family::kDefault;
  std::string why = "no book line";
  if (forced_family_) {
    family = *forced_family_;
    why = "ParamBlock";
  } else if (own_book_ && !book_.empty() && !first_move_.empty()) {
    family = eval::family_of_first_move(first_move_);
    why = "out of book after 1." + first_move_;
  }
  if (family == active_family_) return;
  active_family_ = family;
  apply_parameters();
  say(std::string("info string parameter block ") + eval::family_name(family) + " (" + why + ")");
}

// Loads `path` into `book` (a PolyglotBook or an ExtendedBook); `<empty>` unloads it, and a
// file that cannot be used is reported and leaves no book.
template <typename Book>
void Engine::load_book_file(Book& book, const std::string& path, const char* option, const char* label,
                            const char* unit) {
  Book loaded;
  if (path.empty() || path == "<empty>") {
    book.clear();
  } else if (auto err = loaded.load(path)) {
    book.clear();
    error(std::string(option) + ": " + *err + "; playing without " + (label[0] == 'e' ? "an " : "a ") +
          label);
  } else {
    book = std::move(loaded);
    say(std::string("info string ") + label + " " + path + ": " + std::to_string(book.size()) + " " + unit);
  }
}

bool Engine::set_book_option(const std::string& key, const std::string& value) {
  long number = 0;
  if (key == "ownbook") {
    if (!parse_bool(value, own_book_))
      error("OwnBook takes true or false, not '" + value.substr(0, 64) + "'");
  } else if (key == "bookdepth") {
    if (parse_spin(kBookDepthOption, value, number))
      book_depth_ = int(number);
    else
      error(kBookDepthOption.complaint(value));
  } else if (key == "bookvariety") {
    if (parse_spin(kBookVarietyOption, value, number))
      book_variety_ = int(number);
    else
      error(kBookVarietyOption.complaint(value));
  } else if (key == "bookfile") {
    load_book_file(book_, value, "BookFile", "book", "entries");
  } else if (key == "extendedbook") {
    load_book_file(extended_book_, value, "ExtendedBook", "extended book", "moves");
  } else {
    return false;
  }
  return true;
}

void Engine::start_search(search::Limits limits) {
  counting_ = false;
  search_root_ = game_.position();
  stop_ = false;
  ponderhit_ = false;
  limits.ponderhit = &ponderhit_;
  worker_.start([this, limits] {
    search::Result r = cluster_search_.run(search_root_, limits, stop_, [this](const search::Report& report) {
      say(format_info(report, search_root_, show_wdl_));
    });
    // UCI: no bestmove during `go infinite` or `go ponder` before `stop` (or `ponderhit`).
    while ((limits.infinite || (limits.ponder && !ponderhit_)) && !stop_)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    std::string line = "bestmove " + search_root_.to_uci(r.best);
    if (r.best != core::Move::none() && r.ponder != core::Move::none()) {
      core::StateInfo st;
      core::Position after = search_root_;
      after.do_move(r.best, st);
      if (after.is_legal(r.ponder)) line += " ponder " + after.to_uci(r.ponder);
    }
    say(line);
  });
}

void Engine::apply_parameters() {
  eval::active_params() = eval::apply_style(param_set_[active_family_], style_);
  pool_.clear();  // cached pawn and king entries were scored with the old weights
}

void Engine::stop_search() {
  if (!searching()) return;
  stop_ = true;
  worker_.wait();
}

void Engine::end_of_input() {
  if (counting_) wait_for_search();
  stop_search();
}

void Engine::start_job(std::function<void()> job) {
  counting_ = true;
  stop_ = false;
  worker_.start(std::move(job));
}

void Engine::cmd_perft(std::string_view depth_text) {
  long depth = 0;
  if (!parse_int(trim(depth_text), 1, 64, depth)) return error("perft depth must be a number from 1 to 64");
  search_root_ = game_.position();  // its earlier states stay alive in game_ while the job runs
  start_job([this, depth] {
    std::ostringstream text;
    print_perft(search_root_, int(depth), text, &stop_, pool_.size());
    say(trim(text.str()));
  });
}

void Engine::cmd_bench(std::string_view depth_text) {
  long depth = kDefaultBenchDepth;
  std::string text = trim(depth_text);
  if (!text.empty() && !parse_int(text, 1, search::kMaxPly - 1, depth))
    return error("bench depth must be a number from 1 to " + std::to_string(search::kMaxPly - 1));
  start_job([this, depth] {
    std::ostringstream text;
    run_bench(tt_, cluster_search_, int(depth), text, stop_);
    say(trim(text.str()));
  });
}

void Engine::cmd_eval() {
  say(eval::eval_report(game_.position(), options_.eval_mode == search::EvalMode::kNetwork));
}

void Engine::cmd_setoption(std::string_view args) {
  std::vector<std::string> words = split_words(args);
  size_t value_at = 0;
  std::string name;
  if (words.empty() || words[0] != "name") return error("usage: setoption name <name> [value <value>]");
  for (size_t i = 1; i < words.size(); ++i) {
    if (words[i] == "value") {
      value_at = i + 1;
      break;
    }
    name += (name.empty() ? "" : " ") + words[i];
  }
  std::string value;
  static_assert(kThreadsOption.max == search::ThreadPool::kMaxThreads &&
                kKillersOption.max == search::kMaxKillers);
  for (size_t i = value_at; value_at && i < words.size(); ++i) value += (value.empty() ? "" : " ") + words[i];
  const std::string key = core::to_lower(name);
  if (set_book_option(key, value)) return;
  long number = 0;
  bool flag = false;
  auto bad_value = [&](const std::string& expected) {
    error(name + " takes " + expected + ", not '" + value.substr(0, 64) + "'");
  };

  if (key == "hash") {
    if (!parse_spin(kHashOption, value, number)) return error(kHashOption.complaint(value));
    if (!tt_.resize(size_t(number)))
      return error("could not allocate " + value + " MB (this machine has " +
                   std::to_string(search::physical_memory_megabytes()) + " MB); Hash stays " +
                   std::to_string(tt_.megabytes()));
  } else if (key == "threads") {
    if (!parse_spin(kThreadsOption, value, number)) return error(kThreadsOption.complaint(value));
    pool_.resize(int(number));
  } else if (key == "clear hash") {
    tt_.clear();
    pool_.clear();
  } else if (key == "ponder") {  // the GUI may send go ponder; nothing to set
    if (!parse_bool(value, flag)) return bad_value("true or false");
  } else if (key == "move overhead") {
    if (!parse_spin(kMoveOverheadOption, value, number)) return error(kMoveOverheadOption.complaint(value));
    options_.move_overhead = number;
  } else if (key == "uci_showwdl") {
    if (!parse_bool(value, flag)) return bad_value("true or false");
    show_wdl_ = flag;
  } else if (key == "clustersharedepth" && cluster::ranks() > 1) {
    if (!parse_spin(kClusterShareDepthOption, value, number))
      return error(kClusterShareDepthOption.complaint(value));
    cluster_search_.min_depth = int(number);
  } else if (key == "clusterexchange" && cluster::ranks() > 1) {
    const std::string v = core::to_lower(value);
    if (v != "ring" && v != "allgather") return bad_value("ring or allgather");
    cluster_search_.exchange = v == "ring" ? cluster::Exchange::kRing : cluster::Exchange::kAllGather;
  } else if (key == "multipv") {
    if (!parse_spin(kMultiPvOption, value, number)) return error(kMultiPvOption.complaint(value));
    options_.multi_pv = int(number);
  } else if (key == "uci_chess960") {
    if (!parse_bool(value, flag)) return bad_value("true or false");
    chess960_ = flag;
    game_.position().set_chess960(chess960_);  // the game and its history stay
  } else if (key == "kernels") {
    simd::Kernels k;
    if (!simd::parse_kernels(value, k)) return bad_value("vector, scalar or all-vector");
    simd::set_kernels(k);
    say("info string " + simd::describe());
  } else if (key == "simdtarget") {
    if (!simd::set_simd_target(value)) {
      std::string choices = "best";
      for (const std::string& t : simd::available_targets()) choices += ", " + t;
      return bad_value("one of " + choices);
    }
    say("info string " + simd::describe());
  } else if (key == "ttlayout") {
    std::string v = core::to_lower(value);
    if (v != "bucket" && v != "cray") return bad_value("bucket or cray");
    tt_.set_layout(v == "bucket" ? search::TranspositionTable::Layout::kBucket
                                 : search::TranspositionTable::Layout::kCray);
  } else if (key == "paramfile") {
    eval::ParamSet loaded = eval::default_param_set();
    if (!value.empty() && value != "<empty>") {
      std::string text;
      if (auto err = core::read_file(value, kMaxParamFileBytes, text))
        return error("ParamFile: " + *err + "; parameters unchanged");
      if (auto err = eval::read_param_set(text, loaded))
        return error("ParamFile " + value.substr(0, 200) + ": " + *err + "; parameters unchanged");
    }
    param_set_ = loaded;
    apply_parameters();
    say("info string parameters " +
        (value.empty() || value == "<empty>" ? std::string("default") : "from " + value));
  } else if (key == "paramblock") {
    const std::string v = core::to_lower(value);
    auto family = eval::parse_family(v);
    if (v != "auto" && !family) return bad_value("auto, default, e4, d4 or flank");
    forced_family_ = family;
    if (family) select_param_block();
  } else if (key == "king safety" || key == "passed pawns" || key == "mobility" || key == "pawn structure") {
    int* const fields[] = {&style_.king_safety, &style_.passed_pawns, &style_.mobility,
                           &style_.pawn_structure};
    for (size_t i = 0; i < std::size(kStyleOptions); ++i) {
      if (core::to_lower(kStyleOptions[i].name) != key) continue;
      if (!parse_spin(kStyleOptions[i], value, number)) return error(kStyleOptions[i].complaint(value));
      *fields[i] = int(number);
    }
    apply_parameters();
  } else if (key == "contempt") {
    if (!parse_spin(kContemptOption, value, number)) return error(kContemptOption.complaint(value));
    options_.contempt = int(number);
  } else if (key == "killers") {
    if (!parse_spin(kKillersOption, value, number)) return error(kKillersOption.complaint(value));
    options_.killer_count = int(number);
  } else if (key == "drawbyply") {
    if (!parse_bool(value, flag)) return bad_value("true or false");
    options_.draw_by_ply = flag;
  } else if (key == "evalmode") {
    const std::string v = core::to_lower(value);
    if (v != "classic" && v != "network") return bad_value("classic or network");
    options_.eval_mode = v == "classic" ? search::EvalMode::kClassic : search::EvalMode::kNetwork;
  } else if (key == "evalfile") {
    if (value.empty() || value == "<empty>") return error("EvalFile needs a file name; network unchanged");
    if (auto err = eval::load_active_network(value)) return error("EvalFile " + *err + "; network unchanged");
    say("info string network " + eval::active_network_name() + " from " + value);
  } else if (key == "delaypenalty") {
    if (!parse_bool(value, flag)) return bad_value("true or false");
    options_.delay_penalty = flag;
  } else {
    error("unknown option '" + name.substr(0, 64) + "'");
  }
}

void Engine::cmd_display() {
  const core::Position& pos = game_.position();
  std::ostringstream board;
  for (int r = 7; r >= 0; --r) {
    board << " +---+---+---+---+---+---+---+---+\n";
    for (int f = 0; f < 8; ++f)
      board << " | "
            << " PNBRQK  pnbrqk"[pos.piece_on(core::make_square(core::File(f), core::Rank(r)))];
    board << " | " << r + 1 << '\n';
  }
  board << " +---+---+---+---+---+---+---+---+\n   a   b   c   d   e   f   g   h\n";
  board << "\nFen: " << pos.fen() << std::hex << std::uppercase << std::setfill('0')
        << "\nKey: " << std::setw(16) << pos.key() << "\nPawn key: " << std::setw(16) << pos.pawn_key()
        << "\nPawn+king key: " << std::setw(16) << pos.pawn_king_key() << "\nMaterial key: " << std::setw(16)
        << pos.material_key() << "\nPolyglot key: " << std::setw(16) << book::polyglot_key(pos) << std::dec
        << "\nCheckers:";
  for (core::Bitboard b = pos.checkers(); b;) {
    core::Square s = core::pop_lsb(b);
    board << ' ' << char('a' + core::file_of(s)) << char('1' + core::rank_of(s));
  }
  board << "\nParameter block: " << eval::family_name(active_family_);
  if (!book_.empty()) {
    board << "\nBook moves:";
    for (const book::BookMove& b : book_.moves(pos))
      board << ' ' << pos.to_uci(b.move) << " (" << b.weight << ')';
  }
  if (!extended_book_.empty()) {
    board << "\nExtended book:";
    for (const book::Bonus& b : extended_book_.bonuses(pos)) {
      const book::MoveStats& st = b.stats;
      board << "\n  " << pos.to_uci(b.move) << ' ' << (b.centipawns >= 0 ? "+" : "") << b.centipawns
            << " cp: games " << st.games << ", score " << (st.games ? 50 * st.points / st.games : 50)
            << "%, variations " << st.variations << ", annotation " << st.annotation << ", year "
            << st.last_year << ", mean Elo " << (st.elo_count ? st.elo_sum / st.elo_count : 0);
    }
  }
  say(board.str());
}

int run_loop(std::istream& in, std::ostream& out) {
  // std::cin is tied to std::cout: every read would first flush it from this thread, outside
  // say()'s lock, while the search thread writes (lines came out twice or torn). Every line
  // the engine writes is flushed by say() itself.
  in.tie(nullptr);
  Engine engine(out);
  out << "info string VBlitz " VBLITZ_VERSION " " << simd::describe() << std::endl;
  for (std::string line; cluster::next_line(in, line);)
    if (!engine.handle(line)) return 0;
  engine.end_of_input();
  return 0;
}

}  // namespace vblitz::uci
