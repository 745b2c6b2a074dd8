// Extended-book statistics, their file form and the bonus function.
#include "book/extended_book.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "book/polyglot.h"
#include "core/file.h"

namespace vblitz::book {

namespace {
constexpr int32_t kMaxAnnotation = 1000000;  // file values beyond these are refused as corrupt
constexpr uint32_t kMaxCount = 1000000000;
}  // namespace

void MoveStats::merge(const MoveStats& o) {
  games = std::min(games + uint64_t(o.games), uint64_t(kMaxCount));
  points = std::min(points + uint64_t(o.points), 2 * uint64_t(games));
  variations = std::min(variations + uint64_t(o.variations), uint64_t(kMaxCount));
  annotation = int32_t(
      std::clamp(int64_t(annotation) + o.annotation, int64_t(-kMaxAnnotation), int64_t(kMaxAnnotation)));
  last_year = std::max(last_year, o.last_year);
  elo_sum += o.elo_sum;
  elo_count += o.elo_count;
}

void ExtendedBook::add(uint64_t key, uint16_t move, const MoveStats& stats) {
  auto& list = moves_[key];
  auto it = std::find_if(list.begin(), list.end(), [move](const auto& e) { return e.first == move; });
  if (it == list.end())
    list.emplace_back(move, stats);
  else
    it->second.merge(stats);
  newest_year_ = std::max(newest_year_, stats.last_year);
}

size_t ExtendedBook::size() const {
  size_t n = 0;
  for (const auto& [key, list] : moves_) n += list.size();
  return n;
}

std::string ExtendedBook::write() const {
  std::ostringstream out;
  out << "# VBlitz extended book: key move games points variations annotation year elo_sum elo_count\n";
  for (const auto& [key, list] : moves_)
    for (const auto& [move, s] : list)
      out << std::hex << key << ' ' << move << std::dec << ' ' << s.games << ' ' << s.points << ' '
          << s.variations << ' ' << s.annotation << ' ' << s.last_year << ' ' << s.elo_sum << ' '
          << s.elo_count << '\n';
  return out.str();
}

std::optional<std::string> ExtendedBook::load(const std::string& path) {
  std::string text;
  if (auto error = core::read_file(path, kMaxFileBytes, text)) return error;
  return read(text);
}

std::optional<std::string> ExtendedBook::read(const std::string& text) {
  ExtendedBook loaded;
  std::istringstream in(text);
  int line_number = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    uint64_t key = 0;
    unsigned move = 0;
    MoveStats s;
    std::string extra;
    if (!(words >> std::hex >> key >> move >> std::dec >> s.games >> s.points >> s.variations >>
          s.annotation >> s.last_year >> s.elo_sum >> s.elo_count) ||
        (words >> extra) || move > 0xFFFF || s.points > 2 * s.games ||
        std::abs(s.annotation) > kMaxAnnotation || s.last_year < 0 || s.last_year > 9999 ||
        s.games > kMaxCount || s.variations > kMaxCount || s.elo_count > s.games ||
        s.elo_sum > uint64_t(4000) * s.elo_count)
      return "line " + std::to_string(line_number) +
             ": expected 'key move games points variations annotation " + "year elo_sum elo_count'";
    loaded.add(key, uint16_t(move), s);
  }
  if (loaded.empty()) return std::string("no moves in the extended book");
  *this = std::move(loaded);
  return std::nullopt;
}

std::vector<Bonus> ExtendedBook::bonuses(const core::Position& pos) const {
  std::vector<Bonus> result;
  auto found = moves_.find(polyglot_key(pos));
  if (found == moves_.end()) return result;
  double most_played = 0;
  auto plays = [](const MoveStats& s) { return s.games + 0.25 * s.variations; };  // commentary counts less
  for (const auto& [move, s] : found->second) most_played = std::max(most_played, plays(s));
  for (const auto& [raw, s] : found->second) {
    core::Move m = decode_move(pos, raw);
    if (m == core::Move::none()) continue;
    // Deep Blue's factors, combined multiplicatively: how often, how often relative to the
    // alternatives, how well it scored, how recently and by how strong players; annotations
    // add or subtract directly.
    const double n = plays(s);
    const double popularity = n / (n + 5.0);
    const double share = most_played > 0 ? n / most_played : 0;
    const double score = s.games ? s.points / (2.0 * s.games) : 0.5;
    const double recency =
        s.last_year && newest_year_ ? 1.0 / (1.0 + (newest_year_ - s.last_year) / 10.0) : 1.0;
    const double strength =
        s.elo_count ? std::clamp((double(s.elo_sum) / s.elo_count - 1800.0) / 800.0, 0.25, 1.0) : 1.0;
    const double base = kMaxBonus * popularity * share * (0.5 + score) * recency * strength;
    const int annotation = int(std::clamp(8 * int64_t(s.annotation), int64_t(-20), int64_t(20)));
    const int bonus =
        std::clamp(int(std::lround(std::min(base, double(kMaxBonus)))) + annotation, -kMaxBonus, kMaxBonus);
    result.push_back({m, bonus, s});
  }
  std::stable_sort(result.begin(), result.end(),
                   [](const Bonus& a, const Bonus& b) { return a.centipawns > b.centipawns; });
  return result;
}

}  // namespace vblitz::book
