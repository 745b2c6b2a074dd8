// UCI info lines.
#include "uci/report.h"

#include <sstream>

namespace vblitz::uci {

std::string format_score(int score, search::Bound bound) {
  std::string s = search::is_mate_score(score) ? "mate " + std::to_string(search::mate_distance(score))
                                               : "cp " + std::to_string(score);
  if (bound == simd::tt::BOUND_LOWER) s += " lowerbound";
  if (bound == simd::tt::BOUND_UPPER) s += " upperbound";
  return s;
}

std::string format_info(const search::Report& r, const core::Position& root) {
  std::ostringstream out;
  out << "info depth " << r.depth << " seldepth " << r.seldepth << " multipv 1 score "
      << format_score(r.score, r.bound) << " nodes " << r.nodes << " nps "
      << r.nodes * 1000 / uint64_t(std::max<int64_t>(r.time_ms, 1)) << " hashfull " << r.hashfull << " time "
      << r.time_ms << " pv";
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
