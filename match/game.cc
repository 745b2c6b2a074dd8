// The game loop: the rules, the clock and adjudication.
#include "match/game.h"

#include <cstdlib>

#include "core/game.h"
#include "core/movegen.h"
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

GameResult play_game(UciEngine& white, UciEngine& black, const Limit limits[2], const std::string& fen,
                     const Adjudication& adjudication, int64_t hang_ms) {
  GameResult out;
  core::Game game;
  if (auto error = game.set_fen(fen)) {
    out.termination = "bad opening: " + *error;
    return out;
  }
  UciEngine* engines[2] = {&white, &black};
  int64_t left[2] = {limits[0].base_ms, limits[1].base_ms};
  const std::string start = "position fen " + fen;
  std::string moves_text;
  Adjudicator adjudicator(adjudication);
  while (true) {
    const core::Position& pos = game.position();
    const core::Color us = pos.side_to_move();
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
    const Limit& limit = limits[us];
    std::string go = "go";
    if (limit.clock)
      go += " wtime " + std::to_string(left[0]) + " btime " + std::to_string(left[1]) + " winc " +
            std::to_string(limits[0].increment_ms) + " binc " + std::to_string(limits[1].increment_ms);
    if (limit.nodes) go += " nodes " + std::to_string(limit.nodes);
    if (limit.depth) go += " depth " + std::to_string(limit.depth);
    const int64_t allowed = limit.clock ? left[us] + limit.margin_ms : 0;
    const Clock::time_point sent = Clock::now();
    SearchInfo info;
    const std::string answer =
        engines[us]->go(start + (moves_text.empty() ? "" : " moves" + moves_text), go,
                        sent + std::chrono::milliseconds(std::max<int64_t>(allowed, 0) + hang_ms), info);
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
    const core::Move m = pos.parse_uci(answer);
    if (m == core::Move::none()) {
      out.result = loss_of(us);
      out.termination = std::string(side_name(us)) + " makes an illegal move: " + core::quote(answer, 16);
      out.pgn_termination = "illegal move";
      out.engine_failed[us] = true;
      return out;
    }
    const int move_number = pos.game_ply() / 2 + 1;
    if (game.play({answer})) {  // parse_uci gave a legal move: cannot fail
      out.termination = "internal error: a legal move was refused";
      return out;
    }
    out.moves.push_back(m);
    moves_text += ' ' + answer;
    if (adjudicator.after_move(us, move_number, info.score, out)) return out;
  }
}

}  // namespace vblitz::match
