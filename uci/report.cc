// UCI info lines.
#include "uci/report.h"

#include <cmath>
#include <sstream>

namespace vblitz::uci {

std::string format_score(int score, search::Bound bound) {
  std::string s = search::is_mate_score(score) ? "mate " + std::to_string(search::mate_distance(score))
                                               : "cp " + std::to_string(score);
  if (bound == simd::tt::BOUND_LOWER) s += " lowerbound";
  if (bound == simd::tt::BOUND_UPPER) s += " upperbound";
  return s;
}

std::string format_wdl(int score) {
  if (search::is_mate_score(score)) return score > 0 ? "wdl 1000 0 0" : "wdl 0 0 1000";
  // An equal position is mostly drawn; about two pawns up wins half the games.
  auto win = [](int cp) { return int(std::lround(1000.0 / (1.0 + std::exp((200.0 - cp) / 60.0)))); };
  const int w = win(score), l = win(-score);
  return "wdl " + std::to_string(w) + " " + std::to_string(1000 - w - l) + " " + std::to_string(l);
}

std::string format_info(const search::Report& r, const core::Position& root, bool show_wdl) {
  std::ostringstream out;
  if (r.currmove != core::Move::none()) {
    out << "info depth " << r.depth << " currmove " << root.to_uci(r.currmove) << " currmovenumber "
        << r.currmove_number;
    return out.str();
  }
  out << "info depth " << r.depth << " seldepth " << r.seldepth << " multipv " << r.multipv << " score "
      << format_score(r.score, r.bound);
  if (show_wdl) out << ' ' << format_wdl(r.score);
  out << " nodes " << r.nodes << " nps " << r.nodes * 1000 / uint64_t(std::max<int64_t>(r.time_ms, 1))
      << " hashfull " << r.hashfull << " time " << r.time_ms << " pv";
  // Print the PV in notation relative to each position along it.
  core::Position pos = root;
  core::StateInfo states[search::kMaxPly + 1];
  int i = 0;
  for (core::Move m : r.pv) {
    if (!pos.is_legal(m)) break;
    out << ' ' << pos.to_uci(m);
    pos.do_move(m, states[i++]);
  }
  return out.str();
}

}  // namespace vblitz::uci
