// Hands out moves in stages, generating and scoring each kind only when the search gets that
// far: most nodes cut off on the hash move or a capture before quiet moves are generated.
#include "search/move_picker.h"

#include <algorithm>

#include "eval/evaluate.h"
#include "search/see.h"
#include "simd/quiet_sort.h"

namespace vblitz::search {

using namespace core;

namespace {
constexpr int kHistoryMax = 16384;

// Moves entry toward +-kHistoryMax by bonus, less so the nearer it is already (it stays inside).
void add_bonus(int16_t& entry, int bonus) {
  bonus = std::clamp(bonus, -kHistoryMax, kHistoryMax);
  entry = int16_t(entry + bonus - entry * std::abs(bonus) / kHistoryMax);
}

bool is_noisy(const Position& pos, Move m) { return pos.is_capture(m) || m.kind() == Move::PROMOTION; }
}  // namespace

void History::update(Color us, Piece piece, Move m, int bonus, const Continuations& cont) {
  add_bonus(quiet[us][m.from()][m.to()], bonus);
  for (PieceToHistory* table : cont) add_bonus((*table)[piece][m.to()], bonus);
}

void Killers::add(Move m, int count) {
  int at = find(m, count);
  int last = at >= 0 ? at : count - 1;
  for (int i = last; i > 0; --i) moves[i] = moves[i - 1];
  moves[0] = m.raw();
}

MovePicker::MovePicker(const Position& pos, Move tt_move, const Killers* killers, int killer_count,
                       Move counter, const History& history, const Continuations& cont, bool noisy_only)
    : pos_(pos),
      history_(history),
      cont_(cont),
      killers_(killers),
      killer_count_(killers ? killer_count : 0),
      tt_move_(tt_move),
      counter_(counter),
      noisy_only_(noisy_only && !pos.in_check()) {
  if (!tt_move_.is_ok() || !pos.is_legal(tt_move_) || (noisy_only_ && !is_noisy(pos, tt_move_)))
    tt_move_ = Move::none();
}

bool MovePicker::is_refutation(Move m) const {
  return m == tt_move_ || m == counter_ || (killers_ && killers_->find(m, killer_count_) >= 0);
}

// Captures and promotions by most valuable victim, least valuable attacker (a promotion counts
// its new piece).
void MovePicker::score_noisy() {
  for (size_t i = 0; i < end_; ++i) {
    const Move m = moves_[i];
    PieceType victim = m.kind() == Move::EN_PASSANT ? PAWN : type_of(pos_.piece_on(m.to()));
    int gain = eval::piece_value(victim) * 16 - int(type_of(pos_.moved_piece(m)));
    if (m.kind() == Move::PROMOTION) gain += eval::piece_value(m.promotion_type()) * 16;
    scores_[i] = gain;
  }
}

// Quiet moves by history, sorted best first (stable, so equal scores keep generation order).
void MovePicker::score_and_sort_quiets(size_t begin) {
  const Color us = pos_.side_to_move();
  for (size_t i = begin; i < end_; ++i)
    scores_[i] = history_.quiet_score(us, pos_.moved_piece(moves_[i]), moves_[i], cont_);
  simd::sort_by_score(moves_ + begin, scores_ + begin, end_ - begin);
}

Move MovePicker::next() {
  last_bad_capture_ = false;
  switch (stage_) {
    case Stage::HASH:
      stage_ = Stage::GENERATE_NOISY;
      if (tt_move_ != Move::none()) return tt_move_;
      [[fallthrough]];

    case Stage::GENERATE_NOISY:
      end_ = size_t(generate<NOISY>(pos_, moves_) - moves_);
      score_noisy();
      current_ = bad_end_ = 0;
      stage_ = Stage::GOOD_NOISY;
      [[fallthrough]];

    case Stage::GOOD_NOISY:
      // The best remaining by MVV-LVA; one that loses material (SEE) waits at the front, in the
      // slots of moves already handed out, for the last stage.
      while (current_ < end_) {
        size_t best = current_;
        for (size_t i = current_ + 1; i < end_; ++i)
          if (scores_[i] > scores_[best]) best = i;
        std::swap(moves_[best], moves_[current_]);
        std::swap(scores_[best], scores_[current_]);
        const Move m = moves_[current_++];
        if (m == tt_move_) continue;
        if (see_ge(pos_, m, 0)) return m;
        moves_[bad_end_++] = m;
      }
      noisy_end_ = end_;
      stage_ = noisy_only_ ? Stage::DONE : Stage::KILLERS;
      killer_index_ = 0;
      if (noisy_only_) return Move::none();
      [[fallthrough]];

    case Stage::KILLERS:
      // (A repeated killer is skipped: the list is the caller's and may hold anything.)
      while (killer_index_ < killer_count_) {
        const Move m{killers_->moves[killer_index_]};
        const bool repeated = killers_->find(m, killer_index_++) >= 0;
        if (m.is_ok() && m != tt_move_ && !repeated && !is_noisy(pos_, m) && pos_.is_legal(m)) return m;
      }
      stage_ = Stage::COUNTER;
      [[fallthrough]];

    case Stage::COUNTER:
      stage_ = Stage::GENERATE_QUIETS;
      if (counter_.is_ok() && counter_ != tt_move_ &&
          !(killers_ && killers_->find(counter_, killer_count_) >= 0) && !is_noisy(pos_, counter_) &&
          pos_.is_legal(counter_))
        return counter_;
      [[fallthrough]];

    case Stage::GENERATE_QUIETS:
      current_ = noisy_end_;
      end_ = size_t(generate<QUIET>(pos_, moves_ + noisy_end_) - moves_);
      score_and_sort_quiets(noisy_end_);
      stage_ = Stage::QUIETS;
      [[fallthrough]];

    case Stage::QUIETS:
      while (current_ < end_) {
        const Move m = moves_[current_++];
        if (!is_refutation(m)) return m;
      }
      current_ = 0;
      stage_ = Stage::BAD_NOISY;
      [[fallthrough]];

    case Stage::BAD_NOISY:
      if (current_ < bad_end_) {
        last_bad_capture_ = true;
        return moves_[current_++];
      }
      stage_ = Stage::DONE;
      [[fallthrough]];

    case Stage::DONE: return Move::none();
  }
  return Move::none();
}

}  // namespace vblitz::search
