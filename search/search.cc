// The search proper. Steps are numbered as in the description in docs/search.md.
#include "search/search.h"

#include <sched.h>

#include <algorithm>
#include <cmath>

#include "eval/evaluate.h"
#include "search/see.h"

namespace vblitz::search {

using namespace core;

namespace {

// The tunable constants are in search/search_params.h (options_.params here); these are not.
constexpr int64_t kCurrmoveReportMs = 3000;  // root moves reported once a search ran this long
constexpr int kAspirationWidening = 4;       // the window widened four times on each failure,
constexpr int kAspirationGiveUp = 400;       // unbounded past this

// True if c has a rook, a queen or two minor pieces: enough that passing (the null move) is
// rarely better than every real move. With a lone minor piece zugzwang is common.
bool has_null_move_material(const Position& pos, Color c) {
  return pos.pieces(c, ROOK, QUEEN) || popcount(pos.pieces(c, KNIGHT, BISHOP)) >= 2;
}

// True if a stored score with this bound decides the node for the window (alpha, beta).
bool bound_decides(Bound bound, int score, int alpha, int beta) {
  return bound == simd::tt::BOUND_EXACT || (bound == simd::tt::BOUND_LOWER && score >= beta) ||
         (bound == simd::tt::BOUND_UPPER && score <= alpha);
}

// The bound a node's best score proves, given the window it was searched with.
Bound bound_of_result(int best, int original_alpha, int beta) {
  return best >= beta            ? simd::tt::BOUND_LOWER
         : best > original_alpha ? simd::tt::BOUND_EXACT
                                 : simd::tt::BOUND_UPPER;
}

}  // namespace

void ReductionTable::build() {
  const double base = base_ / 100.0, divisor = divisor_ / 100.0;
  for (int d = 0; d < 64; ++d)
    for (int m = 0; m < 64; ++m)
      value_[d][m] = int8_t(d && m ? base + std::log(d) * std::log(m) / divisor : 0);
}

int64_t Searcher::elapsed_ms() const {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start_)
      .count();
}

// Checks the stop conditions; node-count limits are exact so fixed-node searches repeat.
bool Searcher::time_up() {
  if (aborted_) return true;
  if (limits_.nodes && nodes_ >= limits_.nodes) return aborted_ = true;
  if ((nodes_ & 1023) == 0) {
    published_nodes_.store(nodes_, std::memory_order_relaxed);
    if (pool_nodes_) {  // the node limit holds for the whole pool
      const uint64_t added = nodes_ - pooled_;
      pooled_ = nodes_;
      const uint64_t total = pool_nodes_->fetch_add(added, std::memory_order_relaxed) + added;
      if (limits_.nodes && total >= limits_.nodes) return aborted_ = true;
    }
    if (link_ && polls_link_) link_->poll();  // may raise the cluster's stop
    if (yield_often_) sched_yield();
    if (limits_.ponder && limits_.ponderhit && limits_.ponderhit->load(std::memory_order_relaxed)) {
      // From now on the clock counts: plan as if the search had started here.
      limits_.ponder = false;
      start_ = std::chrono::steady_clock::now();
      time_.start(limits_, us_, options_.move_overhead);
    }
    if (stop_->load(std::memory_order_relaxed)) return aborted_ = true;
    if (also_stop_ && also_stop_->load(std::memory_order_relaxed)) return aborted_ = true;
    if (time_.must_stop(elapsed_ms(), root_drop_)) return aborted_ = true;
  }
  return false;
}

int Searcher::draw_score(int ply) const {
  // For the root side a draw is worth -contempt; Cray Blitz's ply-dependent draws let it
  // prefer the longest drawing line (and its opponent the shortest).
  int value = -options_.contempt + (options_.draw_by_ply ? std::min(ply, 32) / 4 : 0);
  return ply % 2 == 0 ? value : -value;
}

int Searcher::root_bonus(Move m) const {
  for (const auto& [move, bonus] : limits_.root_bonus)
    if (move == m) return bonus;
  return 0;
}

bool Searcher::root_move_allowed(Move m) const {
  const auto& only = limits_.search_moves;
  if (!only.empty() && std::find(only.begin(), only.end(), m) == only.end()) return false;
  return std::find(excluded_.begin(), excluded_.end(), m) == excluded_.end();
}

int Searcher::quiescence(Position& pos, Stack* ss, int alpha, int beta, int qply) {
  if (time_up()) return 0;
  ++nodes_;
  ss->pv_length = 0;
  seldepth_ = std::max(seldepth_, ss->ply);
  if (pos.is_draw(ss->ply)) return draw_score(ss->ply);
  const bool in_check = pos.in_check();
  if (ss->ply >= kMaxPly - 1) return in_check ? 0 : evaluate(pos);

  // The evaluation comes first: computing it hides the latency of the table's cache line,
  // which the parent prefetched.
  const int stand_pat = in_check ? -kInfinite : evaluate(pos);
  TTData tte;
  Move tt_move = Move::none();
  ++tt_probes_;
  if (tt_.probe(pos.key(), tte)) {
    ++tt_hits_;
    tt_move = tte.move;
    int s = score_from_tt(tte.score, ss->ply);
    if (bound_decides(tte.bound, s, alpha, beta)) return s;
  }

  int best = -kInfinite;
  if (!in_check) {
    best = stand_pat;
    if (best >= beta) return best;
    alpha = std::max(alpha, best);
  }
  const int original_alpha = alpha;
  Move best_move = Move::none();
  StateInfo st;
  int searched = 0;

  auto try_move = [&](Move m) {
    prefetch_child(pos.key_after(m));
    ss->move = m;
    ss->continuation = history_.after(pos.moved_piece(m), m.to());
    make_move(pos, m, st);
    ++searched;
    int score = -quiescence(pos, ss + 1, -beta, -alpha, qply + 1);
    unmake_move(pos, m);
    if (aborted_) return false;
    if (score > best) {
      best = score;
      if (score > alpha) {
        alpha = score;
        best_move = m;
        update_pv(ss, m);
      }
    }
    return alpha < beta;
  };

  MovePicker picker(pos, tt_move, nullptr, 0, Move::none(), history_,
                    {ss[-1].continuation, ss[-2].continuation}, true);
  // Losing captures are not offered (they cannot raise the score in a quiet search) unless evading.
  for (Move m = picker.next(); m != Move::none(); m = picker.next())
    if (!try_move(m)) break;
  // At the first quiescence ply, quiet moves that give check are searched too.
  if (!in_check && qply == 0 && alpha < beta && !aborted_) {
    const Position::CheckSquares check_squares = pos.check_squares();
    for (Move m : MoveList<QUIET>(pos))
      if (pos.gives_check(m, check_squares) && !try_move(m)) break;
  }
  if (aborted_) return 0;
  if (in_check && searched == 0) return mated_in(ss->ply);

  Bound bound = bound_of_result(best, original_alpha, beta);
  tt_.store(pos.key(), best_move, score_to_tt(best, ss->ply), qply == 0 ? 0 : -1, bound);
  return best;
}

// micro-Max's delay penalty: a node's score moves one point towards zero, so a gain (or loss)
// seen one ply later is worth one point less (more) and the search takes the fastest route to
// a gain. The window is mapped so that the mapped result keeps its bound: the inner search
// runs on (g(alpha), g(beta)) and its value comes back through f.
int Searcher::negamax(Position& pos, Stack* ss, int alpha, int beta, int depth, bool cut_node) {
  if (!options_.delay_penalty || ss->ply == 0 || depth <= 0)
    return search_node(pos, ss, alpha, beta, depth, cut_node);
  auto f = [](int v) { return is_mate_score(v) ? v : v - (v > 0) + (v < 0); };
  auto below = [](int v) {
    return is_mate_score(v) ? v : v > 0 ? v + 1 : v < 0 ? v - 1 : 1;
  };  // f(x) > v iff x > below(v)
  auto at_least = [](int v) {
    return is_mate_score(v) ? v : v > 0 ? v + 1 : v < 0 ? v - 1 : -1;
  };  // f(x) >= v iff x >= at_least(v)
  const int inner_alpha = below(alpha), inner_beta = at_least(beta);
  if (inner_alpha >= inner_beta) return search_node(pos, ss, alpha, beta, depth, cut_node);
  return f(search_node(pos, ss, inner_alpha, inner_beta, depth, cut_node));
}

int Searcher::search_node(Position& pos, Stack* ss, int alpha, int beta, int depth, bool cut_node) {
  const SearchParams& sp = options_.params;
  const bool pv_node = beta - alpha > 1;
  const int ply = ss->ply;
  const bool root = ply == 0;

  // Step 1. Quiescence at the horizon.
  if (depth <= 0) return quiescence(pos, ss, alpha, beta, 0);

  // Step 2. Stop conditions, draws, mate distance pruning.
  if (time_up()) return 0;
  ++nodes_;
  ss->pv_length = 0;
  seldepth_ = std::max(seldepth_, ply);
  const bool in_check = pos.in_check();
  if (!root) {
    if (pos.is_draw(ply)) return draw_score(ply);
    if (ply >= kMaxPly - 1) return in_check ? 0 : evaluate(pos);
    alpha = std::max(alpha, mated_in(ply));
    beta = std::min(beta, mate_in(ply + 1));
    if (alpha >= beta) return alpha;
  }

  // Step 3. Transposition table (not while a move is excluded: the entry is about all moves).
  const Move excluded = ss->excluded;
  TTData tte;
  Move tt_move = Move::none();
  int tt_score = 0;
  ++tt_probes_;
  const bool tt_hit = tt_.probe(pos.key(), tte);
  if (tt_hit) {
    ++tt_hits_;
    tt_move = tte.move;
    tt_score = score_from_tt(tte.score, ply);
    if (!pv_node && excluded == Move::none() && tte.depth >= depth &&
        bound_decides(tte.bound, tt_score, alpha, beta))
      return tt_score;
  }

  // Step 4. Static evaluation; "improving" if it rose since our previous move.
  const int static_eval = in_check ? -kInfinite : evaluate(pos);
  ss->static_eval = static_eval;
  (ss + 1)->killers = Killers();
  const bool improving = !in_check && static_eval > ss[-2].static_eval;

  // King and pawn endings: the evaluation misjudges races and the tree is narrow, so search
  // them full width (no pruning near the horizon, no reductions).
  const bool pawn_ending = (pos.pieces(PAWN) | pos.pieces(KING)) == pos.pieces();
  if (!pv_node && !in_check && excluded == Move::none() && !pawn_ending) {
    // Step 5. Reverse futility: far above beta near the horizon, trust the evaluation.
    if (depth <= sp.reverse_futility_max_depth &&
        static_eval - sp.reverse_futility_margin * (depth - improving) >= beta && !is_mate_score(beta))
      return static_eval;

    // Step 6. Null move, except where zugzwang is likely (pawns and at most one minor piece).
    if (depth >= sp.null_move_min_depth && static_eval >= beta && ss[-1].move != Move::null() &&
        has_null_move_material(pos, pos.side_to_move())) {
      int r = sp.null_move_base_reduction + depth / sp.null_move_depth_divisor +
              std::min((static_eval - beta) / sp.null_move_eval_step, sp.null_move_max_eval_reduction);
      StateInfo st;
      ss->move = Move::null();
      ss->continuation = history_.after_no_move();
      make_null_move(pos, st);
      int score = -negamax(pos, ss + 1, -beta, -beta + 1, depth - 1 - r, !cut_node);
      unmake_null_move(pos);
      if (aborted_) return 0;
      if (score >= beta) return is_mate_score(score) ? beta : score;
    }
  }

  // Step 7. Internal iterative reduction: a node without a hash move is searched a ply
  // shallower (its next visit will have a move to try first).
  if (!root && depth >= sp.iir_min_depth && tt_move == Move::none()) --depth;

  // Step 8. The moves, best first.
  const Move previous = ss[-1].move;
  const Move counter =
      previous.is_ok() ? history_.counter[pos.piece_on(previous.to())][previous.to()] : Move::none();
  const Continuations continuations = {ss[-1].continuation, ss[-2].continuation};
  MovePicker picker(pos, tt_move, &ss->killers, options_.killer_count, counter, history_, continuations,
                    false);
  const int original_alpha = alpha;
  int best = -kInfinite, move_number = 0;
  Move best_move = Move::none();
  Move quiets_tried[64];
  int quiet_count = 0;
  StateInfo st;
  const Position::CheckSquares check_squares = pos.check_squares();

  for (Move m = picker.next(); m != Move::none(); m = picker.next()) {
    if ((root && !root_move_allowed(m)) || m == excluded) continue;
    prefetch_child(pos.key_after(m));  // early, so the lines are near by the time the child reads them
    ++move_number;
    if (root && report_ && *report_ && elapsed_ms() > kCurrmoveReportMs) {
      Report r;
      r.depth = depth;
      r.currmove = m;
      r.currmove_number = move_number + int(excluded_.size());
      (*report_)(r);
    }
    const bool quiet = !pos.is_capture(m) && m.kind() != Move::PROMOTION;
    const bool bad_capture = picker.last_was_bad_capture();
    const Piece moved = pos.moved_piece(m);
    const int quiet_history = quiet ? history_.quiet_score(pos.side_to_move(), moved, m, continuations) : 0;

    // Step 9. Pruning near the horizon once a move has been searched: futility and late moves
    // (quiet moves that do not give check), and moves that lose material by static exchange.
    if (!root && !pawn_ending && best > -kMateInMaxPly && move_number > 1) {
      if (quiet && !in_check && !pos.gives_check(m, check_squares)) {
        if (depth <= sp.futility_max_depth && static_eval + sp.futility_margin * (depth + 1) <= alpha)
          continue;
        if (!pv_node && depth <= sp.late_move_max_depth &&
            move_number > (improving ? sp.late_move_improving_base + depth * depth
                                     : sp.late_move_base + depth * depth / 2))
          continue;
      }
      if (depth <= sp.see_prune_max_depth &&
          !see_ge(pos, m, quiet ? -sp.see_quiet_margin * depth : -sp.see_capture_margin * depth))
        continue;
    }

    // Step 10. Singular extension: if every other move fails well below the hash move's
    // stored lower bound (a search at half depth without it), the hash move is extended. If
    // even that reduced search beats beta, several moves do: the node is cut (multi-cut).
    bool singular = false;
    if (!root && depth >= sp.singular_min_depth && m == tt_move && excluded == Move::none() &&
        tte.bound != simd::tt::BOUND_UPPER && tte.depth >= depth - sp.singular_tt_depth_slack &&
        !is_mate_score(tt_score)) {
      const int singular_beta = tt_score - sp.singular_margin_per_ply * depth;
      ss->excluded = m;
      const int value = search_node(pos, ss, singular_beta - 1, singular_beta, (depth - 1) / 2, cut_node);
      ss->excluded = Move::none();
      ss->pv_length = 0;  // the test's line is not this node's
      if (aborted_) return 0;
      if (value < singular_beta)
        singular = true;
      else if (singular_beta >= beta)
        return singular_beta;
    }

    // The extended book's bonus offsets this root move's window: it scores `shift` better.
    const int shift = root ? root_bonus(m) : 0;
    alpha -= shift;
    beta -= shift;
    ss->move = m;
    ss->continuation = history_.after(moved, m.to());
    make_move(pos, m, st);
    const bool gives_check = pos.in_check();
    // Step 11. Check and singular extensions (one ply at most). A check extends only in deep
    // nodes whose static evaluation is away from zero (or that are in check themselves).
    const bool check_extension = gives_check && depth >= sp.check_extension_min_depth &&
                                 std::abs(static_eval) >= sp.check_extension_min_eval;
    int new_depth = depth - 1 + (check_extension || singular ? 1 : 0);
    int score;

    // Step 12. Principal variation search with late move reductions (less for moves with a
    // good history; losing captures by half as much; root moves as at any PV node).
    if (move_number == 1) {
      score = -negamax(pos, ss + 1, -beta, -alpha, new_depth, false);
    } else {
      int r = 0;
      const bool may_reduce = depth >= sp.reduction_min_depth && !in_check && !gives_check && !pawn_ending;
      if (may_reduce && quiet) {
        r = reductions_.at(depth, move_number) + !pv_node + cut_node -
            quiet_history / sp.reduction_history_step;
        r = std::clamp(r, 0, new_depth - 1);
      } else if (may_reduce && bad_capture) {
        r = std::clamp(reductions_.at(depth, move_number) / 2 + cut_node, 0, new_depth - 1);
      }
      score = -negamax(pos, ss + 1, -alpha - 1, -alpha, new_depth - r, true);
      if (score > alpha && r > 0) score = -negamax(pos, ss + 1, -alpha - 1, -alpha, new_depth, !cut_node);
      // At the root a fail high at full depth (a reduced one was searched again above)
      // proves the move better than those before it.
      if (root && score > alpha && !aborted_) {
        root_improver_ = {m, score + shift, simd::tt::BOUND_LOWER};
        if (excluded_.empty()) publish(m, Move::none(), depth, score + shift);
      }
      if (score > alpha && score < beta) score = -negamax(pos, ss + 1, -beta, -alpha, new_depth, false);
    }
    unmake_move(pos, m);
    if (aborted_) return 0;
    alpha += shift;
    beta += shift;
    if (!is_mate_score(score)) score += shift;
    if (quiet && quiet_count < 64) quiets_tried[quiet_count++] = m;

    if (score > best) {
      best = score;
      if (score > alpha) {
        alpha = score;
        best_move = m;
        update_pv(ss, m);
        if (root) {
          root_improver_ = {m, score, score >= beta ? simd::tt::BOUND_LOWER : simd::tt::BOUND_EXACT};
          if (excluded_.empty()) publish(m, ss->pv_length > 1 ? ss->pv[1] : Move::none(), depth, score);
        }
        if (alpha >= beta) {
          // Step 13. A cutoff: reward the quiet move, punish the quiet moves tried before it.
          if (quiet) {
            ss->killers.add(m, options_.killer_count);
            if (previous.is_ok()) history_.counter[pos.piece_on(previous.to())][previous.to()] = m;
            const int bonus = sp.history_bonus_scale * std::min(depth * depth, sp.max_history_bonus_depth2);
            for (int i = 0; i < quiet_count; ++i)
              history_.update(pos.side_to_move(), pos.moved_piece(quiets_tried[i]), quiets_tried[i],
                              quiets_tried[i] == m ? bonus : -bonus, continuations);
          }
          break;
        }
      }
    }
  }

  // Step 14. Mate and stalemate (with a move excluded, only that the others fail low).
  if (move_number == 0) return excluded != Move::none() ? alpha : in_check ? mated_in(ply) : draw_score(ply);

  if (excluded == Move::none()) {
    const int stored = score_to_tt(best, ply);
    const Bound bound = bound_of_result(best, original_alpha, beta);
    tt_.store(pos.key(), best_move, stored, depth, bound);
    if (link_ && depth >= link_->min_depth && !aborted_)
      link_->offer(
          {pos.key(), best_move.raw(), int16_t(stored), int8_t(std::min(depth, 127)), uint8_t(bound), 0});
  }
  return best;
}

Searcher::Stack* Searcher::reset_stack() {
  stack_.assign(kMaxPly + 5, Stack());
  for (int i = 0; i < int(stack_.size()); ++i) {
    stack_[size_t(i)].ply = i - 2;
    stack_[size_t(i)].move = Move::none();
    stack_[size_t(i)].excluded = Move::none();
    stack_[size_t(i)].static_eval = -kInfinite;
    stack_[size_t(i)].continuation = history_.after_no_move();
  }
  return &stack_[2];
}

std::optional<int> Searcher::quiet_eval(Position& pos) {
  if (pos.in_check()) return std::nullopt;
  static const std::atomic<bool> never{false};
  limits_ = Limits();
  stop_ = &never;
  also_stop_ = nullptr;
  aborted_ = false;
  nodes_ = 0;
  us_ = pos.side_to_move();
  time_.start(limits_, us_, options_.move_overhead);
  Stack* root = reset_stack();
  start_evaluation(pos);
  const int stand_pat = evaluate(pos);
  if (quiescence(pos, root, -kInfinite, kInfinite, 0) != stand_pat) return std::nullopt;
  return stand_pat;
}

Report Searcher::root_report(const Stack* root, int depth, int score) const {
  Report r;
  r.depth = depth;
  r.seldepth = seldepth_;
  r.score = score;
  r.nodes = nodes_;
  r.time_ms = elapsed_ms();
  r.hashfull = tt_.hashfull();
  r.pv.assign(root->pv, root->pv + root->pv_length);
  return r;
}

void Searcher::adopt_partial_iteration(const Stack* root, int depth, Result& result) {
  const RootImprover& improver = root_improver_;
  if (improver.move == Move::none()) return;
  Report r = root_report(root, depth, improver.score);
  r.bound = improver.bound;
  if (r.pv.empty() || r.pv[0] != improver.move) r.pv = {improver.move};
  // The move, its depth and its score (a bound) all come from this iteration.
  result.best = improver.move;
  result.ponder = r.pv.size() > 1 ? r.pv[1] : Move::none();
  result.depth = depth;
  result.score = improver.score;
  if (report_ && *report_) (*report_)(r);
}

Report result_line(const Result& result, std::chrono::steady_clock::time_point started, int hashfull) {
  Report line;
  line.depth = line.seldepth = result.depth;
  line.score = result.score;
  line.nodes = result.nodes;
  line.time_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started)
          .count();
  line.hashfull = hashfull;
  line.pv.push_back(result.best);
  if (result.ponder != core::Move::none()) line.pv.push_back(result.ponder);
  return line;
}

int helper_next_depth(int id, int depth, int pool_completed, int max_depth) {
  if (id <= 0) return depth;
  // Measured with two threads (docs/search.md): a lead of 3 reached depth 19 sooner than leads
  // of 1, 2, 4 or a fixed pattern of skipped depths. Further helpers take leads 2, 4 and 1 in turn.
  static constexpr int kLead[] = {3, 2, 4, 1};
  const int lead = kLead[(id - 1) % 4];
  return std::max(depth, std::min(pool_completed + lead, max_depth));
}

Move quick_move(const Position& pos, const std::vector<Move>& allowed, const TranspositionTable& tt) {
  const MoveList<LEGAL> legal(pos);
  const auto may_play = [&](Move m) {
    return legal.contains(m) &&
           (allowed.empty() || std::find(allowed.begin(), allowed.end(), m) != allowed.end());
  };
  TTData tte;
  if (tt.probe(pos.key(), tte) && tte.depth >= 1 && tte.move != Move::none() && may_play(tte.move))
    return tte.move;
  Move best = Move::none();
  int best_gain = 0;
  for (const Move m : legal) {
    if (!may_play(m)) continue;
    const int gain = see_value(pos, m);
    if (best == Move::none() || gain > best_gain) best = m, best_gain = gain;
  }
  return best;
}

Result Searcher::run(Position& pos, const Limits& limits, const std::atomic<bool>& stop,
                     const ReportFn& report, const std::atomic<bool>* also_stop) {
  const SearchParams& sp = options_.params;
  reductions_.update(sp);
  start_ = limits.start != std::chrono::steady_clock::time_point{} ? limits.start
                                                                   : std::chrono::steady_clock::now();
  const uint64_t pawn_probes_at_start = evaluator_.pawn_table().probes,
                 pawn_hits_at_start = evaluator_.pawn_table().hits;
  const uint64_t king_probes_at_start = evaluator_.king_table().probes,
                 king_hits_at_start = evaluator_.king_table().hits;
  limits_ = limits;
  stop_ = &stop;
  also_stop_ = also_stop;
  aborted_ = false;
  nodes_ = tt_probes_ = tt_hits_ = pooled_ = 0;
  published_nodes_.store(0, std::memory_order_relaxed);
  completed_depth_.store(0, std::memory_order_relaxed);
  root_drop_ = 0;
  us_ = pos.side_to_move();
  time_.start(limits, us_, options_.move_overhead);
  Stack* ss = reset_stack();
  start_evaluation(pos);

  Result result;
  MoveList<LEGAL> root_moves(pos);
  publish(Move::none(), Move::none(), 0, 0);
  if (root_moves.size() == 0) return result;
  // What a search stopped before depth 1 completes answers with (time_up heeds a stop at once).
  result.best = quick_move(pos, limits.search_moves, tt_);
  publish(result.best, Move::none(), 0, 0);

  // `go mate N` alone searches deep enough for a mate in N through reductions, then answers.
  const int depth_limit = limits.depth > 0  ? limits.depth
                          : limits.mate > 0 ? 4 * limits.mate + 2
                                            : kMaxPly - 1;
  const int max_depth = std::min(depth_limit, kMaxPly - 1);
  const int allowed = limits.search_moves.empty() ? int(root_moves.size()) : int(limits.search_moves.size());
  const int lines = std::clamp(options_.multi_pv, 1, allowed);
  std::vector<int> line_score(size_t(lines), 0);
  std::vector<std::vector<Move>> line_pv(static_cast<size_t>(lines));  // each line's last completed PV
  report_ = &report;
  for (int depth = 1; depth <= max_depth && !aborted_; ++depth) {
    if (pool_depth_)
      depth = helper_next_depth(helper_id_, depth, pool_depth_->load(std::memory_order_relaxed), max_depth);
    if (depth > 1 && !time_.may_start_iteration(elapsed_ms())) break;
    excluded_.clear();
    for (int line = 0; line < lines && !aborted_; ++line) {
      seldepth_ = 0;
      int& score = line_score[size_t(line)];
      // Aspiration: a quarter pawn around the last score, then one pawn, four pawns, unbounded.
      int window = sp.aspiration_window, alpha = -kInfinite, beta = kInfinite;
      if (depth >= 4 && !is_mate_score(score)) alpha = score - window, beta = score + window;
      root_improver_ = RootImprover();  // kept across re-searches: a fail high counts
      while (true) {
        int value = negamax(pos, ss, alpha, beta, depth, false);
        if (aborted_) {
          if (line == 0) adopt_partial_iteration(ss, depth, result);
          break;
        }
        Report r = root_report(ss, depth, value);
        r.multipv = line + 1;
        if (value <= alpha || value >= beta) {
          r.bound = value <= alpha ? simd::tt::BOUND_UPPER : simd::tt::BOUND_LOWER;
          if (value <= alpha && line == 0) root_drop_ = std::max(root_drop_, score - value);
          // No root move reached alpha on a fail low: the line is still the last completed one.
          if (r.pv.empty()) r.pv = line_pv[size_t(line)];
          if (report && r.time_ms >= options_.bound_report_ms && !r.pv.empty()) report(r);
          window *= kAspirationWidening;
          alpha = value <= alpha
                      ? (window > kAspirationGiveUp ? -kInfinite : std::max(value - window, -kInfinite))
                      : alpha;
          beta = value >= beta
                     ? (window > kAspirationGiveUp ? kInfinite : std::min(value + window, int(kInfinite)))
                     : beta;
          continue;
        }
        score = value;
        if (line == 0) {
          root_drop_ = 0;
          result.best = ss->pv[0];
          result.ponder = ss->pv_length > 1 ? ss->pv[1] : Move::none();
          result.score = score;
          result.depth = depth;
          completed_depth_.store(depth, std::memory_order_relaxed);
          if (pool_depth_) {  // the pool's deepest completed iteration, for the helpers' schedule
            int deepest = pool_depth_->load(std::memory_order_relaxed);
            while (deepest < depth &&
                   !pool_depth_->compare_exchange_weak(deepest, depth, std::memory_order_relaxed)) {
            }
          }
          publish(result.best, result.ponder, depth, score);
        }
        excluded_.push_back(ss->pv[0]);
        line_pv[size_t(line)] = r.pv;
        if (report) report(r);
        break;
      }
    }
    if (limits.mate && line_score[0] >= mate_in(2 * limits.mate)) break;
  }
  excluded_.clear();
  report_ = nullptr;
  published_nodes_.store(nodes_, std::memory_order_relaxed);
  result.nodes = nodes_;
  result.tt_probes = tt_probes_;
  result.tt_hits = tt_hits_;
  result.pawn_probes = evaluator_.pawn_table().probes - pawn_probes_at_start;
  result.pawn_hits = evaluator_.pawn_table().hits - pawn_hits_at_start;
  result.king_probes = evaluator_.king_table().probes - king_probes_at_start;
  result.king_hits = evaluator_.king_table().hits - king_hits_at_start;
  return result;
}

}  // namespace vblitz::search
