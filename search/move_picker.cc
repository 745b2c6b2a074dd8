// Scores every legal move once, then hands them out by selection (best first).
#include "search/move_picker.h"

#include <algorithm>

#include "eval/evaluate.h"
#include "search/see.h"

namespace vblitz::search {

using namespace core;

namespace {
constexpr int32_t kHashMove = 1 << 30, kGoodCapture = 1 << 28, kKiller = 1 << 26, kCounter = 1 << 25;
constexpr int kHistoryMax = 16384;

// Moves entry toward +-kHistoryMax by bonus, less so the nearer it is already (it stays inside).
void add_bonus(int16_t& entry, int bonus) {
  bonus = std::clamp(bonus, -kHistoryMax, kHistoryMax);
  entry = int16_t(entry + bonus - entry * std::abs(bonus) / kHistoryMax);
}
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
    : pos_(pos) {
  Move* end = pos.in_check() ? generate<EVASIONS>(pos, moves_)
              : noisy_only   ? generate<NOISY>(pos, moves_)
                             : generate<LEGAL>(pos, moves_);
  size_ = size_t(end - moves_);
  const Color us = pos.side_to_move();
  for (size_t i = 0; i < size_; ++i) {
    const Move m = moves_[i];
    int32_t score;
    if (m == tt_move) {
      score = kHashMove;
    } else if (pos.is_capture(m) || m.kind() == Move::PROMOTION) {
      // Most valuable victim, least valuable attacker; a promotion counts its new piece.
      PieceType victim = m.kind() == Move::EN_PASSANT ? PAWN : type_of(pos.piece_on(m.to()));
      int gain = eval::piece_value(victim) * 16 - int(type_of(pos.moved_piece(m)));
      if (m.kind() == Move::PROMOTION) gain += eval::piece_value(m.promotion_type()) * 16;
      score = see_ge(pos, m, 0) ? kGoodCapture + gain : -kGoodCapture + gain;
    } else if (int k = killers ? killers->find(m, killer_count) : -1; k >= 0) {
      score = kKiller - k;
    } else if (m == counter) {
      score = kCounter;
    } else {
      score = history.quiet_score(us, pos.moved_piece(m), m, cont);
    }
    scores_[i] = score;
  }
}

Move MovePicker::next() {
  if (next_ >= size_) return Move::none();
  size_t best = next_;
  for (size_t i = next_ + 1; i < size_; ++i)
    if (scores_[i] > scores_[best]) best = i;
  std::swap(moves_[best], moves_[next_]);
  std::swap(scores_[best], scores_[next_]);
  last_score_ = scores_[next_];
  last_capture_ = pos_.is_capture(moves_[next_]) || moves_[next_].kind() == Move::PROMOTION;
  return moves_[next_++];
}

}  // namespace vblitz::search
