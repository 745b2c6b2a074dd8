// The UCI protocol loop: reads commands line by line and answers on the output stream. The
// search runs on its own thread so that `isready`, `stop` and `ponderhit` are answered at once.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <iosfwd>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "book/extended_book.h"
#include "book/polyglot.h"
#include "cluster/cluster_search.h"
#include "core/game.h"
#include "eval/param_blocks.h"
#include "eval/params.h"
#include "search/search.h"
#include "search/strength.h"
#include "search/threads.h"
#include "simd/dispatch.h"
#include "uci/deadline.h"
#include "uci/job_thread.h"
#include "uci/options.h"

namespace vblitz::uci {

class Engine {
 public:
  explicit Engine(std::ostream& out);
  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Handles one command line. Returns false when the engine should exit (`quit`). Running out
  // of memory abandons the command with an error; the engine goes on.
  bool handle(std::string_view line);
  // Stops a running search and waits for its bestmove.
  void stop_search();
  // The input ended: a running perft or bench finishes (a script piping `go perft 6` wants
  // the count), a search is stopped with its bestmove.
  void end_of_input();
  // Waits for a running search to end by itself (for bounded searches, e.g. in tests).
  void wait_for_search() { worker_.wait(); }
  // Every UCI option, in the order `uci` lists them (uci/options.h).
  const std::vector<Option>& options() const { return options_table_; }

 private:
  bool dispatch(std::string_view line);  // handle without the out-of-memory guard
  void say(const std::string& text);
  void error(const std::string& reason) { say("info string error: " + reason); }
  void cmd_uci();
  void cmd_position(std::string_view args);
  void cmd_go(std::string_view args);
  void cmd_setoption(std::string_view args);
  void cmd_display();
  void cmd_eval();
  void cmd_perft(std::string_view depth_text);
  void cmd_bench(std::string_view depth_text);
  void start_search(search::Limits limits);
  // Answers the current search at once, stopping its threads: with what they have published
  // (ThreadPool::published_result), so the bestmove does not wait for every busy thread to see
  // the flag and return, or before any thread has completed an iteration with
  // search::quick_move. The search thread then prints nothing more.
  void answer_now();
  // `stop` during a search (not a perft or bench, not a cluster run): answer_now().
  void answer_stop();
  // The clock's guard (deadline_): at the hard limit plus half the move overhead, answer_now()
  // unless the search has answered. In a cluster run the vote comes first unless a rank stopped
  // answering; rank 0 then plays its own move on time (the run ends after the rounds' deadline).
  void arm_deadline(search::Limits limits);
  // The `bestmove` line of r for the current search's root, with its ponder move if legal.
  std::string bestmove_line(const search::Result& r) const;
  // Prints one info line of the current search unless it has been answered.
  void report_line(const search::Report& report);
  // Answers the current search with r unless it has been answered. With `last_line`, an info
  // line of r comes first if the last line reported started with another move.
  void answer(const search::Result& r, bool last_line);
  // Runs `job` on the search thread as a search runs there: `isready` is answered meanwhile,
  // and `stop` (or any command that needs the game) sets stop_ and waits for it.
  void start_job(std::function<void()> job);
  // Plays a move from the Polyglot book if OwnBook is on and the position is in it; true if
  // it answered `bestmove`.
  bool play_book_move(const search::Limits& limits);
  // The block of the chosen family (ParamBlock), or with `auto` the family the game's book
  // line opened (default without a book); reports a change with `info string`.
  void select_param_block();
  // Makes the active block with the style the evaluation's parameters (between searches).
  void apply_parameters();
  // The option table (uci/engine_options.cc): each option's declaration and setter.
  std::vector<Option> make_options();
  template <typename Book>
  void load_book_file(Book& book, const std::string& path, const char* option, const char* label,
                      const char* unit);
  bool searching() const { return worker_.busy(); }
  // The network this engine searches with (EvalFile's, else the process's).
  std::shared_ptr<const eval::Network> network() const {
    return options_.network ? options_.network : eval::active_network();
  }

  std::ostream& out_;
  std::mutex out_mutex_;
  core::Game game_;
  bool chess960_ = false;
  bool show_wdl_ = false;
  eval::ParamSet param_set_ = eval::default_param_set();  // from ParamFile, before the style
  std::optional<eval::Family> forced_family_;             // ParamBlock; nullopt: auto
  eval::Family active_family_ = eval::Family::kDefault;
  std::string first_move_;  // the game's first move if it began at the standard start
  book::PolyglotBook book_;
  book::ExtendedBook extended_book_;
  bool own_book_ = false;
  int book_depth_ = 255;  // use the book for this many moves of each side
  int book_variety_ = 50;
  std::mt19937_64 book_rng_{std::random_device{}()};
  bool limit_strength_ = false;  // UCI_LimitStrength: play at UCI_Elo (search/strength.h)
  int elo_ = search::kMinElo;
  std::mt19937_64 strength_rng_{std::random_device{}()};
  eval::Style style_;
  // This engine's kernel selection (Kernels, SimdTarget), at start the creating thread's (the
  // process's unless a simd::Scope is installed); its threads run with it (simd/dispatch.h).
  simd::Dispatch kernels_ = simd::current();
  search::TranspositionTable tt_;
  search::Options options_;
  search::ThreadPool pool_{tt_, options_};
  search::ClusterSearch cluster_search_{tt_, pool_};  // the pool's searches, shared by a cluster's processes
  core::Position search_root_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> ponderhit_{false};  // the current `go ponder` was answered by `ponderhit`
  // Whoever answers the current search first (the search thread, or answer_stop) sets
  // answered_ as it prints the bestmove; after that nothing more of the search is printed. Both
  // members are guarded by out_mutex_, the only lock the stop path takes: a search thread holds
  // it for one write, never while it searches.
  bool answered_ = false;
  core::Move last_line_move_;  // the first move of the search's last `info ... pv` line
  std::chrono::steady_clock::time_point search_started_;
  bool counting_ = false;              // the search thread runs a perft or bench, not a search
  search::Limits search_limits_;       // the current search's limits
  std::vector<Option> options_table_;  // its setters use the members above
  Deadline deadline_{[this] { answer_now(); }};
  JobThread worker_;  // last: its jobs use the members above
};

// Runs the loop until `quit` or end of input; returns the process exit status. In a cluster run
// rank 0 reads `in` and every rank handles each line (docs/cluster.md). The `startup` lines
// (the command line's flags as setoption) are handled first.
int run_loop(std::istream& in, std::ostream& out, const std::vector<std::string>& startup = {});

// Prints a perft breakdown by root move, then "Nodes searched: N", time and speed, counted on
// `threads` threads (and, in a cluster run, shared out over the processes); or, when *stop
// became true first, "info string perft stopped" instead of the totals.
void print_perft(core::Position& pos, int depth, std::ostream& out, const std::atomic<bool>* stop = nullptr,
                 int threads = 1);

// Parses a whole decimal integer in [lo, hi]; false if the text is anything else.
bool parse_int(std::string_view text, long lo, long hi, long& value);
// Parses a whole decimal integer of any size, saturating at the range of long; false if the
// text is not an optionally signed run of digits.
bool parse_clamped(std::string_view text, long& value);

// A `go` whose only limits were malformed (and ignored) searches this many milliseconds.
constexpr long kFallbackMoveTime = 1000;

}  // namespace vblitz::uci
