// UCI command handling. Every malformed line is answered with "info string error: <reason>"
// and leaves the engine's position and options as they were.
#include "uci/uci.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <new>
#include <sstream>
#include <system_error>
#include <vector>

#include "cluster/cluster.h"
#include "core/file.h"
#include "core/movegen.h"
#include "core/perft.h"
#include "core/text.h"
#include "eval/evaluate.h"
#include "simd/dispatch.h"
#include "uci/bench.h"
#include "uci/report.h"

#ifndef VBLITZ_VERSION
#define VBLITZ_VERSION "dev"
#endif

namespace vblitz::uci {

namespace {

constexpr size_t kMaxLineLength = 1 << 20;

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

// The fields of `go` that take a number.
constexpr const char* kNumericGoFields[] = {"wtime",    "btime", "winc",  "binc", "movestogo",
                                            "movetime", "depth", "nodes", "mate"};

// Whether `word` starts a field of `go` (and so ends a searchmoves list).
bool is_go_keyword(const std::string& word) {
  return word == "infinite" || word == "ponder" || word == "searchmoves" ||
         std::find(std::begin(kNumericGoFields), std::end(kNumericGoFields), word) !=
             std::end(kNumericGoFields);
}

std::string trim(std::string_view s) {
  size_t a = s.find_first_not_of(" \t\r\n"), b = s.find_last_not_of(" \t\r\n");
  return a == std::string_view::npos ? std::string() : std::string(s.substr(a, b - a + 1));
}

}  // namespace

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
  // The shares are alike: a rank that takes more than twice this one's time has stopped.
  const auto own =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
  cluster::sum(counts, 2 * own + cluster::kAnswerDeadline);
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

Engine::Engine(std::ostream& out) : out_(out), options_table_(make_options()) { apply_parameters(); }

Engine::~Engine() { stop_search(); }

void Engine::say(const std::string& text) {
  std::lock_guard<std::mutex> lock(out_mutex_);
  out_ << text << std::endl;
}

bool Engine::handle(std::string_view line) {
  const simd::Scope scope(kernels_);  // this engine's kernels on the calling thread too
  try {
    return dispatch(line);
  } catch (const std::bad_alloc&) {
    error("not enough memory for " + core::quote(first_word(line).first) + "; the command was abandoned");
    return true;
  } catch (const std::system_error& e) {  // e.g. the system refused a new thread
    error(core::quote(first_word(line).first) + " failed: " + e.what());
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
    answer_stop();
    stop_search();
  } else if (command == "ponderhit") {
    ponderhit_ = true;
    if (searching() && !counting_ && search_limits_.ponder) {  // the clock counts from now
      search::Limits on_clock = search_limits_;
      on_clock.ponder = false;
      on_clock.start = std::chrono::steady_clock::now();
      arm_deadline(on_clock);
    }
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
      error("unknown command " + core::quote(command));
  }
  return true;
}

void Engine::cmd_uci() {
  say("id name VBlitz " VBLITZ_VERSION);
  say("id author the VBlitz developers");
  for (const Option& option : options_table_)
    if (!option.cluster_only || cluster::ranks() > 1) say(option.declaration());
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
    return error("position needs 'startpos' or 'fen <FEN>', not " + core::quote(words[0]));
  }
  if (i < words.size() && words[i] != "moves")
    return error("unexpected " + core::quote(words[i]) + " after position startpos");
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
      // The moves run to the next keyword (`go searchmoves e2e4 d2d4 depth 2`); a repeated
      // move counts once.
      for (; i + 1 < w.size() && !is_go_keyword(w[i + 1]); ++i) {
        const core::Move m = game_.position().parse_uci(w[i + 1]);
        if (m == core::Move::none())
          ignore("searchmoves: " + core::quote(w[i + 1]) + " is not a legal move");
        else if (std::find(limits.search_moves.begin(), limits.search_moves.end(), m) ==
                 limits.search_moves.end())
          limits.search_moves.push_back(m);
      }
      continue;
    }
    if (std::find(std::begin(kNumericGoFields), std::end(kNumericGoFields), key) ==
        std::end(kNumericGoFields)) {
      ignore("unknown parameter " + core::quote(key));
      long skipped = 0;
      if (i + 1 < w.size() &&
          parse_int(w[i + 1], std::numeric_limits<long>::min(), std::numeric_limits<long>::max(), skipped))
        ++i;
      continue;
    }
    long v = 0;
    if (i + 1 >= w.size() || !parse_clamped(w[i + 1], v)) {
      ignore(key +
             (i + 1 >= w.size() ? " needs a value" : ": " + core::quote(w[i + 1]) + " is not a number"));
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
  if (limit_strength_) search::limit_strength(limits, game_.position(), elo_, strength_rng_);
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

void Engine::arm_deadline(search::Limits limits) {
  search::TimeManager clock;
  clock.start(limits, search_root_.side_to_move(), options_.move_overhead);
  if (clock.hard_limit())
    deadline_.arm(limits.start + std::chrono::milliseconds(clock.hard_limit() + options_.move_overhead / 2));
}

void Engine::answer_now() {
  stop_ = true;
  search::Result r = pool_.published_result();
  // A published move is this search's (start_search forgot the last one's); legality is checked
  // all the same, as nothing illegal may ever be sent.
  if (r.best == core::Move::none() || pool_.depth_completed() < 1 ||
      !core::MoveList<core::LEGAL>(search_root_).contains(r.best)) {
    r = search::Result{};
    r.best = search::quick_move(search_root_, search_limits_.search_moves, tt_);
  }
  answer(r, true);  // the last line a GUI sees starts with the move played; no-op once answered
}

void Engine::start_search(search::Limits limits) {
  deadline_.disarm();  // the last search's guard no longer runs
  counting_ = false;
  search_root_ = game_.position();
  stop_ = false;
  ponderhit_ = false;
  limits.ponderhit = &ponderhit_;
  if (limits.start == std::chrono::steady_clock::time_point{})
    limits.start = std::chrono::steady_clock::now();
  search_started_ = limits.start;
  search_limits_ = limits;
  answered_ = false;
  last_line_move_ = core::Move::none();
  pool_.forget_last_search();  // until the threads start, nothing of the last search is published
  arm_deadline(limits);
  worker_.start([this, limits] {
    const simd::Scope scope(kernels_);
    search::Result r;
    // A search that fails (out of memory, a thread the system refused) still answers: with the
    // first of searchmoves or the first legal move.
    const auto failed = [&](const std::string& why) {
      error("the search failed (" + why + "); playing the first legal move");
      r = search::Result{};
      const core::MoveList<core::LEGAL> legal(search_root_);
      if (!limits.search_moves.empty())
        r.best = limits.search_moves.front();
      else if (legal.size() > 0)
        r.best = *legal.begin();
    };
    try {
      r = cluster_search_.run(search_root_, limits, stop_,
                              [this](const search::Report& report) { report_line(report); });
    } catch (const std::bad_alloc&) {
      failed("not enough memory");
    } catch (const std::exception& e) {
      failed(e.what());
    }
    // UCI: no bestmove during `go infinite` or `go ponder` before `stop` (or `ponderhit`).
    while ((limits.infinite || (limits.ponder && !ponderhit_)) && !stop_)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    answer(r, false);
    deadline_.disarm();
    if (cluster_search_.lost_rank()) {  // no collective can complete now: say so, then end every process
      const std::string why = "cluster: a process stopped answering for " +
                              std::to_string(search::ClusterSearch::kRankDeadline.count()) +
                              " ms; the bestmove above is this process's own, and the run ends";
      error(why);
      cluster::abort_run(why);
    }
  });
}

std::string Engine::bestmove_line(const search::Result& r) const {
  std::string line = "bestmove " + search_root_.to_uci(r.best);
  if (r.best != core::Move::none() && r.ponder != core::Move::none()) {
    core::StateInfo st;
    core::Position after = search_root_;
    after.do_move(r.best, st);
    if (after.is_legal(r.ponder)) line += " ponder " + after.to_uci(r.ponder);
  }
  return line;
}

void Engine::report_line(const search::Report& report) {
  const std::string line = format_info(report, search_root_, show_wdl_);
  std::lock_guard<std::mutex> lock(out_mutex_);
  if (answered_) return;
  if (!report.pv.empty()) last_line_move_ = report.pv[0];
  out_ << line << std::endl;
}

void Engine::answer(const search::Result& r, bool last_line) {
  const std::string info =
      last_line && r.best != core::Move::none() && r.depth > 0
          ? format_info(search::result_line(r, search_started_, tt_.hashfull()), search_root_, show_wdl_)
          : std::string();
  const std::string bestmove = bestmove_line(r);
  std::lock_guard<std::mutex> lock(out_mutex_);
  if (answered_) return;
  if (!info.empty() && r.best != last_line_move_) out_ << info << '\n';
  out_ << bestmove << std::endl;
  answered_ = true;
}

void Engine::answer_stop() {
  if (!searching() || counting_ || cluster::ranks() > 1) return;
  answer_now();
}

void Engine::apply_parameters() {
  options_.eval_params = eval::apply_style(param_set_[active_family_], style_);
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
  deadline_.disarm();
  counting_ = true;
  stop_ = false;
  worker_.start([this, job = std::move(job)] {
    const simd::Scope scope(kernels_);
    try {
      job();
    } catch (const std::bad_alloc&) {
      error("not enough memory; the count was abandoned");
    } catch (const std::exception& e) {
      error(std::string("the count failed: ") + e.what());
    }
  });
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
  say(eval::eval_report(game_.position(), options_.eval_mode == search::EvalMode::kNetwork,
                        options_.eval_params, *network()));
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
  for (size_t i = value_at; value_at && i < words.size(); ++i) value += (value.empty() ? "" : " ") + words[i];
  const Option* option = find_option(options_table_, name);
  if (!option || (option->cluster_only && cluster::ranks() == 1))
    return error("unknown option " + core::quote(name));
  OptionValue parsed;
  if (auto complaint = option->parse(value, parsed)) return error(*complaint);
  if (auto err = option->set(parsed)) error(*err);
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

int run_loop(std::istream& in, std::ostream& out, const std::vector<std::string>& startup) {
  // std::cin is tied to std::cout: every read would first flush it from this thread, outside
  // say()'s lock, while the search thread writes (lines came out twice or torn). Every line
  // the engine writes is flushed by say() itself.
  in.tie(nullptr);
  Engine engine(out);
  out << "info string VBlitz " VBLITZ_VERSION " " << simd::describe() << std::endl;
  for (const std::string& line : startup) engine.handle(line);
  for (std::string line; cluster::next_line(in, line);)
    if (!engine.handle(line)) return 0;
  engine.end_of_input();
  return 0;
}

}  // namespace vblitz::uci
