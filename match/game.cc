// The game loop: the rules, the clock and adjudication.
#include "match/game.h"

#include <cstdio>
#include <cstdlib>

#include "core/game.h"
#include "core/movegen.h"
#include "core/san.h"
#include "core/text.h"

namespace vblitz::match {

namespace {

const char* side_name(core::Color c) { return c == core::WHITE ? "White" : "Black"; }

// The result in which side `loser` loses.
std::string loss_of(core::Color loser) { return loser == core::WHITE ? "0-1" : "1-0"; }

// Adjudication on the scores the engines report, ply by ply.
class Adjudicator {
 public:
  explicit Adjudicator(const Adjudication& a) : a_(a) {}

  // After `mover` moved at full move `move_number` with its score (none: no score given). Fills
  // result and termination and returns true when the game is decided.
  bool after_move(core::Color mover, int move_number, const std::optional<int>& score, GameResult& out) {
    if (a_.draw) {
      const bool quiet = score && std::abs(*score) <= a_.draw_score && move_number >= a_.draw_move_number;
      draw_plies_ = quiet ? draw_plies_ + 1 : 0;
      if (a_.draw_move_count > 0 && draw_plies_ >= 2 * a_.draw_move_count) {
        out.result = "1/2-1/2";
        out.termination = "adjudicated draw";
        out.pgn_termination = "adjudication";
        return true;
      }
    }
    if (a_.resign) {
      int loser = -1;  // the side the score gives up, if it is beyond the resign score
      if (score && *score <= -a_.resign_score) loser = mover;
      if (score && *score >= a_.resign_score) loser = ~mover;
      if (a_.resign_two_sided) {
        resign_plies_ = loser >= 0 && loser == resign_loser_ ? resign_plies_ + 1 : loser >= 0 ? 1 : 0;
        resign_loser_ = loser;
        if (a_.resign_move_count > 0 && resign_plies_ >= 2 * a_.resign_move_count)
          return resigned(core::Color(loser), out);
      } else {
        int& own = losing_moves_[mover];
        own = loser == int(mover) ? own + 1 : 0;
        if (a_.resign_move_count > 0 && own >= a_.resign_move_count) return resigned(mover, out);
      }
    }
    return false;
  }

 private:
  static bool resigned(core::Color loser, GameResult& out) {
    out.result = loss_of(loser);
    out.termination = std::string(side_name(loser)) + " resigns (adjudicated)";
    out.pgn_termination = "adjudication";
    return true;
  }

  Adjudication a_;
  int draw_plies_ = 0;
  int resign_plies_ = 0, resign_loser_ = -1;
  int losing_moves_[2] = {0, 0};
};

}  // namespace

namespace {

// The PGN comment of a move: "+0.35/18 0.421s", "-M3/12 0.050s", or "" without a score.
std::string move_comment(const SearchInfo& info, int64_t spent_ms) {
  if (!info.score) return "";
  const int score = *info.score;
  char text[64];
  if (std::abs(score) > 31000)
    std::snprintf(text, sizeof text, "%sM%d/%d %.3fs", score > 0 ? "+" : "-", 32000 - std::abs(score),
                  info.depth, double(spent_ms) / 1000);
  else
    std::snprintf(text, sizeof text, "%+.2f/%d %.3fs", score / 100.0, info.depth, double(spent_ms) / 1000);
  return text;
}

// The move to make for the side with `limit`: the game so far and both clocks.
Turn turn_of(const std::string& fen, const std::vector<std::string>& played, const Limit& limit,
             const Limit limits[2], const int64_t left[2]) {
  Turn turn;
  turn.fen = fen;
  turn.moves = played;
  turn.clock = limit.clock;
  for (int side = 0; side < 2; ++side) {
    turn.time_ms[side] = left[side];
    turn.increment_ms[side] = limits[side].increment_ms;
  }
  turn.nodes = limit.nodes;
  turn.depth = limit.depth;
  return turn;
}

GameResult play_moves(Engine* engines[2], const Limit limits[2], const std::string& fen,
                      const Adjudication& adjudication, int64_t hang_ms) {
  GameResult out;
  core::Game game;
  if (auto error = game.set_fen(fen)) {
    out.termination = "bad opening: " + *error;
    return out;
  }
  int64_t left[2] = {limits[0].base_ms, limits[1].base_ms};
  std::vector<std::string> played;  // in coordinates, as the engines are told them
  Adjudicator adjudicator(adjudication);
  std::string expected[2];  // the reply each side named with its last move
  core::Move ponder_move[2] = {core::Move::none(), core::Move::none()};  // the reply it ponders on
  bool hit[2] = {false, false};  // its search goes on after a ponderhit
  Clock::time_point hit_at[2];
  while (true) {
    const core::Position& pos = game.position();
    const core::Color us = pos.side_to_move(), them = ~us;
    if (core::MoveList<core::LEGAL>(pos).size() == 0) {
      if (pos.in_check()) {
        out.result = loss_of(us);
        out.termination = std::string(side_name(~us)) + " mates";
        out.pgn_termination = "normal";
      } else {
        out.result = "1/2-1/2";
        out.termination = "stalemate";
        out.pgn_termination = "normal";
      }
      return out;
    }
    if (pos.is_draw(0)) {
      out.result = "1/2-1/2";
      out.termination = pos.has_insufficient_material() ? "insufficient material"
                        : pos.rule50_count() >= 100     ? "fifty-move rule"
                                                        : "threefold repetition";
      out.pgn_termination = "normal";
      return out;
    }
    // The side that just moved ponders on the reply it named, if that reply is legal here.
    if (engines[them]->config().ponder && !expected[them].empty()) {
      const core::Move reply = pos.parse_uci(expected[them]);
      if (reply != core::Move::none()) {
        ponder_move[them] = reply;
        Turn turn = turn_of(fen, played, limits[them], limits, left);
        turn.moves.push_back(expected[them]);
        engines[them]->go_ponder(turn);
      }
      expected[them].clear();
    }
    Engine* pondering = engines[them]->pondering() ? engines[them] : nullptr;
    const Limit& limit = limits[us];
    const int64_t allowed = limit.clock ? left[us] + limit.margin_ms : 0;
    const Clock::time_point sent = hit[us] ? hit_at[us] : Clock::now();
    const Clock::time_point deadline =
        sent + std::chrono::milliseconds(std::max<int64_t>(allowed, 0) + hang_ms);
    SearchInfo info;
    const std::string answer =
        hit[us] ? engines[us]->best_move(deadline, info, pondering)
                : engines[us]->think(turn_of(fen, played, limit, limits, left), deadline, info, pondering);
    hit[us] = false;
    const int64_t spent = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - sent).count();
    if (answer.empty()) {
      out.result = loss_of(us);
      const bool exited = engines[us]->exited();
      out.termination =
          std::string(side_name(us)) + (exited                           ? " exits (crashed)"
                                        : limit.clock && spent > allowed ? " loses on time (no answer)"
                                                                         : " does not answer (hung)");
      out.pgn_termination = exited                           ? "abandoned"
                            : limit.clock && spent > allowed ? "time forfeit"
                                                             : "stalled connection";
      out.engine_failed[us] = true;
      return out;
    }
    if (limit.clock) {
      if (spent > allowed) {
        out.result = loss_of(us);
        out.termination = std::string(side_name(us)) + " loses on time";
        out.pgn_termination = "time forfeit";
        return out;
      }
      left[us] += limit.increment_ms - spent;
    }
    if (answer == "resign") {  // an xboard engine gives up
      out.result = loss_of(us);
      out.termination = std::string(side_name(us)) + " resigns";
      out.pgn_termination = "normal";
      return out;
    }
    core::Move m = pos.parse_uci(answer);
    if (m == core::Move::none() && engines[us]->config().protocol == Protocol::kXboard)
      m = core::parse_san(pos, answer);  // xboard engines may answer in SAN
    if (m == core::Move::none()) {
      out.result = loss_of(us);
      out.termination = std::string(side_name(us)) + " makes an illegal move: " + core::quote(answer, 16);
      out.pgn_termination = "illegal move";
      out.engine_failed[us] = true;
      return out;
    }
    // The pondering side: its search becomes the real one, or it is stopped.
    if (pondering) {
      if (m == ponder_move[them]) {
        pondering->ponderhit();
        hit[them] = true;
        hit_at[them] = Clock::now();
        ++out.ponder_hits;
      } else {
        ++out.ponder_misses;
        if (!pondering->stop_search(Clock::now() + std::chrono::milliseconds(hang_ms))) {
          out.result = loss_of(them);
          out.termination = std::string(side_name(them)) + " does not answer stop while pondering (hung)";
          out.pgn_termination = pondering->exited() ? "abandoned" : "stalled connection";
          out.engine_failed[them] = true;
          return out;
        }
      }
    }
    const int move_number = pos.game_ply() / 2 + 1;
    const std::string coordinates = engines[us]->config().protocol == Protocol::kUci ? answer : pos.to_uci(m);
    if (game.play({coordinates})) {  // a legal move: cannot fail
      out.termination = "internal error: a legal move was refused";
      return out;
    }
    out.moves.push_back(m);
    out.comments.push_back(move_comment(info, spent));
    played.push_back(coordinates);
    expected[us] = info.ponder;
    // The rules come before adjudication: a move that mates or draws ends the game as such
    // (at the loop's top), even when the scores would also have ended it.
    const core::Position& after = game.position();
    if (core::MoveList<core::LEGAL>(after).size() == 0 || after.is_draw(0)) continue;
    if (adjudicator.after_move(us, move_number, info.score, out)) return out;
  }
}

}  // namespace

GameResult play_game(Engine& white, Engine& black, const Limit limits[2], const std::string& fen,
                     const Adjudication& adjudication, int64_t hang_ms) {
  Engine* engines[2] = {&white, &black};
  GameResult out = play_moves(engines, limits, fen, adjudication, hang_ms);
  // A side still searching when the game ends (pondering on the opponent's time, or after a
  // ponderhit when the opponent's move ended the game) is stopped and its bestmove read, so
  // its next game starts from an idle engine and no stale answer.
  for (int side = 0; side < 2; ++side) {
    if (!engines[side]->searching() || out.engine_failed[side]) continue;
    const bool pondering = engines[side]->pondering();
    if (!engines[side]->stop_search(Clock::now() + std::chrono::milliseconds(hang_ms))) {
      out.engine_failed[side] = true;
      out.termination += std::string(", then ") + side_name(core::Color(side)) + " did not answer stop" +
                         (pondering ? " while pondering" : "") + " (hung)";
    }
  }
  return out;
}

}  // namespace vblitz::match
