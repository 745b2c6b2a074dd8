// Collecting per-move statistics from PGN games.
#include "book/book_builder.h"

#include <algorithm>
#include <map>

namespace vblitz::book {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The year of a PGN date ("2024.05.17", "2024.??.??"), or 0 if unknown.
int year_of(const std::string& date) {
  if (date.size() < 4 || !std::all_of(date.begin(), date.begin() + 4, is_digit)) return 0;
  return std::stoi(date.substr(0, 4));
}

int elo_of(const std::string& text) {
  if (text.empty() || text.size() > 4 || !std::all_of(text.begin(), text.end(), is_digit)) return 0;
  return std::stoi(text);
}

}  // namespace

void BookBuilder::add_pgn(std::istream& in, BuildReport& report) {
  PgnReader reader(in);
  PgnGame game;
  std::string reason;
  for (PgnReader::Status s; (s = reader.next(game, reason)) != PgnReader::Status::kEnd;) {
    ++report.games;
    if (s == PgnReader::Status::kGame) {
      if (auto err = add_game(game))
        reason = "game " + std::to_string(game.number) + " (line " + std::to_string(game.line) + "): " + *err;
      else {
        ++report.used;
        continue;
      }
    }
    report.skipped.push_back(reason);
  }
  report.positions = stats_.size();
}

std::optional<std::string> BookBuilder::add_game(const PgnGame& game) {
  if (points_for(game.result, core::WHITE) < 0) return std::string("no result ('*')");
  const int year = year_of(game.tag("Date"));
  const int elo[2] = {elo_of(game.tag("WhiteElo")), elo_of(game.tag("BlackElo"))};
  // Validate the whole game first so a bad game adds nothing.
  if (auto err = replay(game, [](const core::Position&, core::Move, int, bool, int) {})) return err;
  replay(game, [&](const core::Position& pos, core::Move m, int ply, bool main_line, int annotation) {
    if (ply >= options_.max_ply) return;
    MoveStats& s = stats_[{polyglot_key(pos), encode_move(m)}];
    const core::Color us = pos.side_to_move();
    if (main_line) {
      ++s.games;
      s.points += uint32_t(points_for(game.result, us));
      s.last_year = std::max(s.last_year, year);
      if (elo[us]) {
        s.elo_sum += uint64_t(elo[us]);
        ++s.elo_count;
      }
    } else {
      ++s.variations;
    }
    s.annotation += annotation;
  });
  return std::nullopt;
}

std::vector<Entry> BookBuilder::polyglot_entries() const {
  std::map<uint64_t, std::vector<std::pair<uint16_t, uint32_t>>> by_key;  // key -> (move, points)
  for (const auto& [k, s] : stats_)
    if (s.games >= uint32_t(options_.min_games) && s.points > 0)
      by_key[k.first].emplace_back(k.second, s.points);
  std::vector<Entry> entries;
  for (auto& [key, list] : by_key) {
    uint32_t heaviest = 0;
    for (const auto& [move, points] : list) heaviest = std::max(heaviest, points);
    const size_t first = entries.size();
    for (const auto& [move, points] : list)
      entries.push_back(
          {key, move, uint16_t(heaviest > 0xFFFF ? uint64_t(points) * 0xFFFF / heaviest : points), 0});
    std::sort(entries.begin() + long(first), entries.end(), [](const Entry& a, const Entry& b) {
      return a.weight != b.weight ? a.weight > b.weight : a.move < b.move;
    });
  }
  return entries;
}

ExtendedBook BookBuilder::extended_book() const {
  ExtendedBook book;
  for (const auto& [k, s] : stats_)
    if (s.games + s.variations >= uint32_t(options_.min_games)) book.add(k.first, k.second, s);
  return book;
}

}  // namespace vblitz::book
