// UCI_Elo: node budgets and root noise from calibration points.
#include "search/strength.h"

#include <algorithm>
#include <cmath>
#include <iterator>

#include "core/movegen.h"

namespace vblitz::search {

namespace {

// Calibration points (Elo on Stockfish 15.1's scale, node budget, root noise in centipawns),
// in rising Elo. Set from matches at 10+0.1 against Stockfish 15.1 with the same UCI_Elo, then
// carried over to each later network by fixed-node matches against the network before it
// (docs/strength.md).
struct Point {
  int elo;
  double nodes;
  int noise;
};
constexpr Point kPoints[] = {
    {kMinElo, 90, 27}, {1500, 140, 23}, {2000, 6000, 0}, {2500, 400000, 0}, {kMaxElo, 20000000, 0},
};

}  // namespace

StrengthLimit strength_for_elo(int elo) {
  elo = std::clamp(elo, kMinElo, kMaxElo);
  const Point* hi = std::lower_bound(std::begin(kPoints), std::end(kPoints), elo,
                                     [](const Point& p, int e) { return p.elo < e; });
  if (hi == std::begin(kPoints)) ++hi;
  const Point* lo = hi - 1;
  const double t = double(elo - lo->elo) / double(hi->elo - lo->elo);
  StrengthLimit s;
  s.nodes =
      uint64_t(std::llround(std::exp(std::log(lo->nodes) + t * (std::log(hi->nodes) - std::log(lo->nodes)))));
  s.noise = int(std::lround(lo->noise + t * (hi->noise - lo->noise)));
  return s;
}

void limit_strength(Limits& limits, const core::Position& pos, int elo, std::mt19937_64& rng) {
  const StrengthLimit s = strength_for_elo(elo);
  limits.nodes = limits.nodes ? std::min(limits.nodes, s.nodes) : s.nodes;
  if (s.noise <= 0) return;
  std::uniform_int_distribution<int> bonus(0, s.noise);
  for (const core::Move m : core::MoveList<core::LEGAL>(pos)) {
    const int b = bonus(rng);
    auto it = std::find_if(limits.root_bonus.begin(), limits.root_bonus.end(),
                           [m](const auto& entry) { return entry.first == m; });
    if (it != limits.root_bonus.end())
      it->second += b;
    else
      limits.root_bonus.emplace_back(m, b);
  }
}

}  // namespace vblitz::search
