#include "data/openings.h"

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <ostream>
#include <random>
#include <unordered_set>

#include "core/game.h"
#include "core/movegen.h"
#include "core/text.h"

namespace vblitz::data {

namespace {

constexpr int kTableMegabytes = 16;
constexpr int kTriesPerOpening = 200;  // gives up when the filter refuses nearly everything

std::optional<long> number_after(const std::vector<std::string>& args, size_t i, long lo, long hi) {
  if (i + 1 >= args.size()) return std::nullopt;
  return core::parse_long(args[i + 1], lo, hi);
}

// The FEN's first four fields: placement, side, castling, en passant.
std::string epd_of(const core::Position& pos) {
  const std::string fen = pos.fen();
  size_t at = 0;
  for (int field = 0; field < 4 && at != std::string::npos; ++field) at = fen.find(' ', at + 1);
  return fen.substr(0, at);
}

}  // namespace

const char* openings_usage() {
  return "usage: vblitz openings OUT.epd [--count N] [--plies N] [--nodes N] [--max-score CP] [--seed N]";
}

std::optional<std::string> parse_openings_args(const std::vector<std::string>& args, OpeningsOptions& o) {
  if (args.empty() || args[0].rfind("--", 0) == 0) return std::string("openings needs an output file");
  o.out_path = args[0];
  for (size_t i = 1; i < args.size(); i += 2) {
    const std::string& flag = args[i];
    std::optional<long> v;
    if (flag == "--count" && (v = number_after(args, i, 1, 100000)))
      o.count = int(*v);
    else if (flag == "--plies" && (v = number_after(args, i, 0, 40)))
      o.plies = int(*v);
    else if (flag == "--nodes" && (v = number_after(args, i, 1, 100000000)))
      o.nodes = uint64_t(*v);
    else if (flag == "--max-score" && (v = number_after(args, i, 0, 10000)))
      o.max_score = int(*v);
    else if (flag == "--seed" && (v = number_after(args, i, 0, 1L << 62)))
      o.seed = uint64_t(*v);
    else
      return "openings: bad or missing value for " + core::quote(flag);
  }
  return std::nullopt;
}

int run_openings(const OpeningsOptions& o, std::ostream& log) {
  std::ofstream out(o.out_path);
  if (!out) {
    log << "openings: cannot write " << o.out_path << '\n';
    return 1;
  }
  search::TranspositionTable tt;
  tt.resize(kTableMegabytes);
  search::Options options;
  options.eval_mode = o.eval_mode;
  search::Searcher searcher(tt, options);
  search::Limits limits;
  limits.nodes = o.nodes;
  const std::atomic<bool> stop{false};
  std::mt19937_64 rng(o.seed);
  std::unordered_set<std::string> seen;
  int kept = 0, tried = 0;
  const long max_tries = long(o.count) * kTriesPerOpening;
  while (kept < o.count && tried < max_tries) {
    ++tried;
    core::Game game;
    game.set_fen(core::Position::kStartFen);
    bool ended = false;
    for (int ply = 0; ply < o.plies && !ended; ++ply) {
      const core::MoveList<core::LEGAL> legal(game.position());
      if (legal.size() == 0) {
        ended = true;
        break;
      }
      game.play({game.position().to_uci(*(legal.begin() + long(rng() % legal.size())))});
    }
    if (ended || core::MoveList<core::LEGAL>(game.position()).size() == 0) continue;
    const std::string epd = epd_of(game.position());
    if (!seen.insert(epd).second) continue;
    tt.clear();
    searcher.clear();
    tt.new_search();
    const search::Result r = searcher.run(game.position(), limits, stop, nullptr);
    if (std::abs(r.score) > o.max_score) continue;
    out << epd << '\n';
    ++kept;
  }
  out.flush();
  log << "openings: " << kept << " positions kept of " << tried << " tried (" << o.plies << " random plies, "
      << o.nodes << " nodes, |score| <= " << o.max_score << " cp, seed " << o.seed << ") in " << o.out_path
      << '\n';
  if (!out) {
    log << "openings: writing " << o.out_path << " failed\n";
    return 1;
  }
  return kept == o.count ? 0 : 1;
}

}  // namespace vblitz::data
