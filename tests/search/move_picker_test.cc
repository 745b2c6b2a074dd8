// Move ordering: the picker yields every legal move exactly once in its stated order, and the
// history tables (butterfly and continuation) reorder quiet moves and stay bounded.
#include "search/move_picker.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <set>

#include "core/position.h"
#include "core/prng.h"
#include "search/see.h"
#include "tests/test_support.h"

namespace vblitz::search {
namespace {

using namespace core;

bool is_noisy(const Position& pos, Move m) { return pos.is_capture(m) || m.kind() == Move::PROMOTION; }

// The moves the picker yields, in order.
std::vector<Move> picked(MovePicker& picker) {
  std::vector<Move> out;
  for (Move m = picker.next(); m != Move::none(); m = picker.next()) out.push_back(m);
  return out;
}

// Calls check(pos, legal moves) on every suite position that has a legal move.
template <class Check>
void for_each_position_with_moves(Check check) {
  for (const std::string& fen : test::suite_fens()) {
    StateInfo st;
    Position pos;
    ASSERT_FALSE(pos.set(fen, st)) << fen;
    MoveList<LEGAL> legal(pos);
    if (legal.size() > 0) check(pos, legal);
  }
}

TEST(MovePicker, EveryLegalMoveOnceWhateverTheKillersHashMoveFirstLosingCapturesLast) {
  auto history = std::make_unique<History>();
  const Continuations none = {history->after_no_move(), history->after_no_move()};
  Prng rng(5);
  std::vector<Move> previous = {Move(SQ_E2, SQ_E4)};
  int positions = 0;
  for_each_position_with_moves([&](const Position& pos, const MoveList<LEGAL>& legal) {
    const std::string fen = pos.fen();
    const Move hash_move = *(legal.begin() + legal.size() / 2);
    // Killers and a counter move as the search might pass them: some legal here (quiet or
    // not, even the hash move), some from other positions, some arbitrary codes.
    Killers killers;
    for (int i = 0; i < kMaxKillers; ++i)
      killers.moves[i] = i % 3 == 0   ? (legal.begin() + (positions * 7 + i) % legal.size())->raw()
                         : i % 3 == 1 ? uint16_t(rng.next())
                                      : previous[size_t(i) % previous.size()].raw();
    const Move counter =
        positions % 2 ? *(legal.begin() + positions % legal.size()) : Move(uint16_t(rng.next()));
    previous.assign(legal.begin(), legal.end());
    ++positions;
    MovePicker picker(pos, hash_move, &killers, kMaxKillers, counter, *history, none, false);
    const std::vector<Move> order = picked(picker);
    ASSERT_EQ(order.size(), legal.size()) << fen;
    std::set<uint16_t> seen;
    for (Move m : order)
      EXPECT_TRUE(seen.insert(m.raw()).second) << "twice: " << pos.to_uci(m) << " in " << fen;
    for (Move m : legal) EXPECT_TRUE(seen.count(m.raw())) << "missing: " << pos.to_uci(m) << " in " << fen;
    EXPECT_EQ(order.front(), hash_move) << fen;
    // After the first losing capture only losing captures follow.
    if (pos.in_check()) return;
    auto losing = [&](Move m) { return m != hash_move && is_noisy(pos, m) && !see_ge(pos, m, 0); };
    auto first_losing = std::find_if(order.begin(), order.end(), losing);
    EXPECT_TRUE(std::all_of(first_losing, order.end(), losing)) << fen;
  });
  EXPECT_GT(positions, 500);
}

// Quiescence mode: the captures and promotions that do not lose material (SEE), plus a noisy
// hash move whatever its SEE; a quiet hash move is not played. In check: every evasion.
TEST(MovePicker, NoisyOnlyGivesCapturesThatDoNotLoseOrEveryEvasion) {
  auto history = std::make_unique<History>();
  const Continuations none = {history->after_no_move(), history->after_no_move()};
  int with_losing_capture = 0;
  for_each_position_with_moves([&](const Position& pos, const MoveList<LEGAL>& legal) {
    const Move hash_move = *legal.begin();
    MovePicker picker(pos, hash_move, nullptr, 0, Move::none(), *history, none, true);
    std::vector<Move> order = picked(picker), expected;
    for (Move m : legal)
      if (pos.in_check() || (is_noisy(pos, m) && (m == hash_move || see_ge(pos, m, 0))))
        expected.push_back(m);
    with_losing_capture += std::any_of(legal.begin(), legal.end(),
                                       [&](Move m) { return is_noisy(pos, m) && !see_ge(pos, m, 0); });
    auto raw = [](Move m) { return m.raw(); };
    std::vector<uint16_t> got(order.size()), want(expected.size());
    std::transform(order.begin(), order.end(), got.begin(), raw);
    std::transform(expected.begin(), expected.end(), want.begin(), raw);
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    EXPECT_EQ(got, want) << pos.fen();
  });
  EXPECT_GT(with_losing_capture, 50);
}

TEST(MovePicker, HistoryAndContinuationsLiftARewardedQuietMove) {
  auto history = std::make_unique<History>();
  StateInfo st;
  Position pos;
  ASSERT_FALSE(pos.set("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", st));
  const Move reply = Move(SQ_F1, SQ_B5);  // Bb5 after ...Nc6
  Continuations after_nc6 = {history->after(B_KNIGHT, SQ_C6), history->after(W_KNIGHT, SQ_F3)};
  auto rank_of_move = [&](const Continuations& cont) {
    MovePicker picker(pos, Move::none(), nullptr, 0, Move::none(), *history, cont, false);
    const std::vector<Move> order = picked(picker);
    return std::find(order.begin(), order.end(), reply) - order.begin();
  };
  const auto before = rank_of_move(after_nc6);
  history->update(WHITE, W_BISHOP, reply, 4000, after_nc6);
  EXPECT_EQ(rank_of_move(after_nc6), 0);  // the only capture, Nxe5, loses material: it comes last
  EXPECT_GT(before, 0);
  // The continuation part belongs to the previous move: after another one, only the butterfly
  // share remains.
  Continuations after_other = {history->after(B_KNIGHT, SQ_F6), history->after(W_KNIGHT, SQ_F3)};
  EXPECT_GT(history->quiet_score(WHITE, W_BISHOP, reply, after_nc6),
            history->quiet_score(WHITE, W_BISHOP, reply, after_other));
  EXPECT_GT(history->quiet_score(WHITE, W_BISHOP, reply, after_other), 0);
}

TEST(MovePicker, HistoryEntriesStayBoundedUnderRepeatedUpdates) {
  auto history = std::make_unique<History>();
  const Continuations cont = {history->after(W_PAWN, SQ_E4), history->after(B_PAWN, SQ_E5)};
  const Move m = Move(SQ_G1, SQ_F3);
  for (int i = 0; i < 1000; ++i) history->update(WHITE, W_KNIGHT, m, 32 * 400, cont);
  EXPECT_LE(history->quiet_score(WHITE, W_KNIGHT, m, cont), 3 * 16384);
  EXPECT_GT(history->quiet_score(WHITE, W_KNIGHT, m, cont), 3 * 16000);
  for (int i = 0; i < 1000; ++i) history->update(WHITE, W_KNIGHT, m, -32 * 400, cont);
  EXPECT_GE(history->quiet_score(WHITE, W_KNIGHT, m, cont), -3 * 16384);
  EXPECT_LT(history->quiet_score(WHITE, W_KNIGHT, m, cont), -3 * 16000);
}

}  // namespace
}  // namespace vblitz::search
