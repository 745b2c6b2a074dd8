// Alpha-beta search in the Cray Blitz tradition: iterative deepening with aspiration windows,
// principal variation search, quiescence, null move, late move reductions, futility pruning,
// check extension; the eight-slot transposition table is shared through `tt`.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/position.h"
#include "eval/evaluate.h"
#include "eval/network.h"
#include "search/limits.h"
#include "search/move_picker.h"
#include "search/score.h"
#include "search/search_link.h"
#include "search/search_params.h"
#include "search/time_manager.h"
#include "search/topology.h"
#include "search/tt.h"

namespace vblitz::search {

// Which static evaluation the search uses: Cray Blitz's hand-written one or the network.
enum class EvalMode { kClassic, kNetwork };
// The evaluation used when none is chosen: the stronger one, measured (docs/network.md: the
// network against the classic evaluation at equal nodes and at 3+0.03 and 10+0.1).
inline constexpr EvalMode kDefaultEvalMode = EvalMode::kNetwork;
// The UCI and command-line name of an evaluation.
inline const char* eval_mode_name(EvalMode mode) {
  return mode == EvalMode::kClassic ? "classic" : "network";
}

// User-settable search behaviour: an engine's own, nothing shared with other engines in the
// process (the kernel selection is the searching thread's, simd/dispatch.h).
struct Options {
  EvalMode eval_mode = kDefaultEvalMode;
  int killer_count = 2;                     // killers kept per ply (1..10)
  bool draw_by_ply = false;                 // Cray Blitz: later draws score a little better for the root side
  bool delay_penalty = false;               // micro-Max: a gain found sooner scores a little better
  int contempt = 0;                         // centipawns a draw is worth less to the root side
  int multi_pv = 1;                         // principal variations searched and reported per iteration
  int64_t move_overhead = 10;               // ms kept back for the GUI and the network
  int64_t bound_report_ms = 1000;           // aspiration failures reported once a search ran this long
  Binding thread_binding = Binding::kAuto;  // where the pool's threads run (search/topology.h)
  SearchParams params;                      // the tunable constants (search/search_params.h)
  // The network the searches evaluate with; nullptr: the process's (eval::active_network()).
  std::shared_ptr<const eval::Network> network;
  // The classic evaluation's parameters (ParamFile and the style options); the searchers'
  // evaluators read them, so change them only between searches and clear the pool after.
  eval::Params eval_params = eval::default_params();
};

// Late move reductions in plies by depth and move number, logarithmic in both, from the
// parameters' base and divisor (rebuilt when they change).
class ReductionTable {
 public:
  ReductionTable() { build(); }
  void update(const SearchParams& params) {
    if (params.reduction_base != base_ || params.reduction_divisor != divisor_) {
      base_ = params.reduction_base;
      divisor_ = params.reduction_divisor;
      build();
    }
  }
  int at(int depth, int move_number) const { return value_[std::min(depth, 63)][std::min(move_number, 63)]; }

 private:
  void build();
  int base_ = SearchParams().reduction_base, divisor_ = SearchParams().reduction_divisor;
  int8_t value_[64][64];
};

// One completed (or aborted) iteration, as the UCI `info` line reports it.
struct Report {
  int depth = 0, seldepth = 0;
  int multipv = 1;                           // which line (1 = best)
  core::Move currmove = core::Move::none();  // set on a "currmove" report only
  int currmove_number = 0;
  int score = 0;
  Bound bound = simd::tt::BOUND_EXACT;  // lower/upper when the aspiration window failed
  uint64_t nodes = 0;
  int64_t time_ms = 0;
  int hashfull = 0;
  std::vector<core::Move> pv;
};

struct Result {
  core::Move best = core::Move::none();
  core::Move ponder = core::Move::none();
  int score = 0;
  int depth = 0;
  uint64_t nodes = 0;
  uint64_t tt_probes = 0, tt_hits = 0;
  uint64_t pawn_probes = 0, pawn_hits = 0, king_probes = 0, king_hits = 0;
};

// The `info` line of a finished search's result, for a move that came from another thread or
// process: its depth, score and nodes, its move and ponder move as the pv, the time since
// `started` and the table's fill (per mille).
Report result_line(const Result& result, std::chrono::steady_clock::time_point started, int hashfull);

// Lazy SMP's depth schedule: the depth at which searcher `id` starts its next iteration when it
// would otherwise search `depth` and the deepest iteration any thread of the pool has completed
// is `pool_completed`. The main searcher (0) searches every depth; a helper runs a few plies
// ahead of the pool (its lead: 3 for helper 1, then 2, 4, 1 in turn), never beyond `max_depth`,
// so its deeper entries in the shared table cut the other threads' searches short.
int helper_next_depth(int id, int depth, int pool_completed, int max_depth);

// The move a search answers with when it ends before its first iteration does (a stop, the
// clock or a node limit comes first): among `allowed` (every legal move when empty), the root's
// table move if it has one from a search at least one ply deep, else the move whose exchange
// on its square gains most (an en-prise piece is taken, no piece is left where it is lost),
// the first in generation order on a tie. Move::none() when there is no legal move.
core::Move quick_move(const core::Position& pos, const std::vector<core::Move>& allowed,
                      const TranspositionTable& tt);

class Searcher {
 public:
  using ReportFn = std::function<void(const Report&)>;

  Searcher(TranspositionTable& tt, const Options& options)
      : tt_(tt), options_(options), evaluator_(options.eval_params) {}

  // Searches pos (whose history must stay alive) within the limits; `stop` ends it early from
  // outside, and so does `also_stop` if given. Calls `report` after each iteration (and
  // aspiration failure) if given. The
  // caller ages the table first (TranspositionTable::new_search), once for all threads.
  Result run(core::Position& pos, const Limits& limits, const std::atomic<bool>& stop, const ReportFn& report,
             const std::atomic<bool>* also_stop = nullptr);
  // For tuning data: the static evaluation (side to move) if pos is quiet, that is not in
  // check and no capture or check in the quiescence search beats standing pat; else nullopt.
  // The search probes the table: give it an empty one for an answer from the position alone.
  std::optional<int> quiet_eval(core::Position& pos);
  // The NUMA node whose copy of the network this searcher reads from its next search (-1: the
  // shared one); set by the thread pool from the thread's placement.
  void set_numa_node(int node) { network_.set_numa_node(node); }
  const eval::Network* network() const { return network_.network(); }
  // Forgets ordering statistics (ucinewgame).
  void clear() {
    history_.clear();
    evaluator_.clear();
  }
  // Makes this searcher a Lazy SMP helper (id >= 1), which picks its iterations' depths by
  // helper_next_depth() when it shares a pool's depth. 0 is the main searcher.
  void set_helper_id(int id) { helper_id_ = id; }
  // Gives up the CPU every 1,024 nodes (sched_yield): the pool sets it for helpers when it has
  // more threads than the CPUs it may use, so the main searcher and the clock's guard (a timer
  // thread that must answer on time) are not kept waiting behind hundreds of busy helpers.
  void set_yield_often(bool yield) { yield_often_ = yield; }
  // In a cluster run: deep stores are offered to `link`, and the main searcher (`polls`) moves
  // its exchange on from the time check. nullptr: a plain search.
  void set_link(SearchLink* link, bool polls) {
    link_ = link;
    polls_link_ = polls;
  }
  // With several threads: every thread adds its nodes to `counter` every 1024 nodes and stops
  // when the sum reaches the node limit (nullptr: the limit is this searcher's own).
  void share_node_count(std::atomic<uint64_t>* counter) { pool_nodes_ = counter; }
  // With several threads: the deepest iteration any of them has completed, which this searcher
  // raises and helpers read to pick their depths (nullptr: every depth in turn).
  void share_depth(std::atomic<int>* depth) { pool_depth_ = depth; }
  // Nodes searched so far in the current or last search, as published every 1024 nodes;
  // safe to read from other threads.
  uint64_t nodes_searched() const { return published_nodes_.load(std::memory_order_relaxed); }
  // The last iteration the current or last search completed (0: none yet); safe to read from
  // other threads.
  int depth_completed() const { return completed_depth_.load(std::memory_order_relaxed); }
  // Forgets the last search's completed depth and published result: the pool calls it for
  // every thread before a new search starts on any of them, so no thread still shows the old
  // depth or move (of another position) while it starts late.
  void forget_last_search() {
    completed_depth_.store(0, std::memory_order_relaxed);
    publish(core::Move::none(), core::Move::none(), 0, 0);
  }
  // The move, ponder move, depth and score this thread would return if it were stopped now
  // (its last completed iteration, or a root move the current one proved better), as run()
  // returns them; safe to read from other threads during a search. Nodes are not filled in.
  // Lock-free: a reader never waits for a thread the system has descheduled.
  Result published() const {
    const uint64_t packed = published_.load(std::memory_order_acquire);
    Result r;
    r.best = core::Move(uint16_t(packed));
    r.ponder = core::Move(uint16_t(packed >> 16));
    r.depth = int(uint8_t(packed >> 32));
    r.score = int(int16_t(uint16_t(packed >> 40)));
    return r;
  }

 private:
  struct Stack {
    int ply;
    core::Move move;               // the move that led to the next ply
    PieceToHistory* continuation;  // the continuation table of `move`
    core::Move excluded;           // a move this node skips (the singular extension's test)
    int static_eval;
    Killers killers;
    core::Move pv[kMaxPly + 1];
    int pv_length;
  };

  // The static evaluation (side to move's view) in the EvalMode this search started with.
  int evaluate(const core::Position& pos) {
    return network_on_ ? eval::network_endgame_score(pos, network_.evaluate(pos)) : evaluator_.evaluate(pos);
  }
  // Starts the network's accumulators at the root when the network evaluates.
  void start_evaluation(const core::Position& pos) {
    network_on_ = options_.eval_mode == EvalMode::kNetwork;
    if (network_on_) network_.reset(pos, options_.network);
  }
  // Make and take back moves, keeping the network's accumulators in step.
  void make_move(core::Position& pos, core::Move m, core::StateInfo& st) {
    if (network_on_) network_.push(pos, m);
    pos.do_move(m, st);
  }
  void unmake_move(core::Position& pos, core::Move m) {
    pos.undo_move(m);
    if (network_on_) network_.pop();
  }
  void make_null_move(core::Position& pos, core::StateInfo& st) {
    if (network_on_) network_.push_null();
    pos.do_null_move(st);
  }
  void unmake_null_move(core::Position& pos) {
    pos.undo_null_move();
    if (network_on_) network_.pop();
  }

  // The principal variation of ss becomes m followed by the child's.
  static void update_pv(Stack* ss, core::Move m) {
    ss->pv[0] = m;
    std::copy_n((ss + 1)->pv, (ss + 1)->pv_length, ss->pv + 1);
    ss->pv_length = (ss + 1)->pv_length + 1;
  }
  // Starts loading what the child with this key will read first: its table bucket and its
  // cached evaluation.
  void prefetch_child(core::Key key) const {
    tt_.prefetch(key);
    evaluator_.prefetch(key);
  }
  // Fresh stacks for a search from the root; returns the root's entry (two sentinels before it).
  Stack* reset_stack();
  // Alpha-beta at one node; applies the delay penalty (when on) around search_node.
  int negamax(core::Position& pos, Stack* ss, int alpha, int beta, int depth, bool cut_node);
  int search_node(core::Position& pos, Stack* ss, int alpha, int beta, int depth, bool cut_node);
  int quiescence(core::Position& pos, Stack* ss, int alpha, int beta, int qply);
  int draw_score(int ply) const;
  // True if the root move may be searched now (searchmoves, and lines already reported).
  bool root_move_allowed(core::Move m) const;
  // The extended-book bonus of root move m (0 if none).
  int root_bonus(core::Move m) const;
  bool time_up();
  // The info line for the root's current principal variation at `depth` with `score`.
  Report root_report(const Stack* root, int depth, int score) const;
  // After an iteration of the first line was cut short: plays the move it proved better than
  // the last completed iteration's, if any, and reports it.
  void adopt_partial_iteration(const Stack* root, int depth, Result& result);
  int64_t elapsed_ms() const;

  TranspositionTable& tt_;
  const Options& options_;
  History history_;
  eval::Evaluator evaluator_;
  eval::NetworkStack network_{kMaxPly + 1};
  std::atomic<uint64_t>* pool_nodes_ = nullptr;
  std::atomic<int>* pool_depth_ = nullptr;  // the pool's deepest completed iteration
  SearchLink* link_ = nullptr;
  bool polls_link_ = false;
  uint64_t pooled_ = 0;  // nodes already added to *pool_nodes_
  bool network_on_ = false;
  std::vector<Stack> stack_;
  ReductionTable reductions_;
  TimeManager time_;
  Limits limits_;
  const std::atomic<bool>* stop_ = nullptr;
  const std::atomic<bool>* also_stop_ = nullptr;  // a second stop signal (the thread pool's)
  core::Color us_ = core::WHITE;
  bool aborted_ = false;
  int root_drop_ = 0;  // how far the root score fell in this iteration (deep think)
  // The root move of the iteration in progress proven better than the moves searched before it
  // (a fail high included), played if the iteration is cut short (as Crafty does).
  struct RootImprover {
    core::Move move = core::Move::none();
    int score = 0;
    Bound bound = simd::tt::BOUND_LOWER;
  } root_improver_;
  std::vector<core::Move> excluded_;  // best moves of the earlier MultiPV lines this iteration
  const ReportFn* report_ = nullptr;
  int seldepth_ = 0;
  uint64_t nodes_ = 0, tt_probes_ = 0, tt_hits_ = 0;
  std::atomic<uint64_t> published_nodes_{0};
  std::atomic<int> completed_depth_{0};
  // One word: move, ponder move, depth (< 256) and score (|score| <= kInfinite < 2^15).
  void publish(core::Move best, core::Move ponder, int depth, int score) {
    published_.store(uint64_t(best.raw()) | uint64_t(ponder.raw()) << 16 | uint64_t(uint8_t(depth)) << 32 |
                         uint64_t(uint16_t(int16_t(score))) << 40,
                     std::memory_order_release);
  }
  std::atomic<uint64_t> published_{0};
  int helper_id_ = 0;
  bool yield_often_ = false;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace vblitz::search
