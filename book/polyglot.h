// Polyglot opening books: the `.bin` format GUIs and book tools share. A book is a file of
// 16-byte big-endian entries (key, move, weight, learn) sorted by key; the key is Polyglot's
// own Zobrist hash of the position, not the engine's.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/position.h"

namespace vblitz::book {

// Polyglot's 64-bit key of the position (the standard 781-number table; en passant counts only
// when a pawn of the side to move stands ready to capture).
uint64_t polyglot_key(const core::Position& pos);

// A move in Polyglot's 16 bits: to (bits 0-5), from (6-11), promotion piece (12-14: 0 none,
// 1 knight .. 4 queen); castling is written king-takes-rook, as VBlitz writes it internally.
uint16_t encode_move(core::Move m);
// The legal move of `pos` that `raw` names, or Move::none() if it names none (an illegal or
// corrupt entry).
core::Move decode_move(const core::Position& pos, uint16_t raw);

struct Entry {
  uint64_t key = 0;
  uint16_t move = 0;
  uint16_t weight = 0;
  uint32_t learn = 0;
};
constexpr size_t kEntryBytes = 16;

// Serializes entries (already sorted by key) as a .bin file image.
std::string write_entries(const std::vector<Entry>& entries);

struct BookMove {
  core::Move move;
  int weight;
};

class PolyglotBook {
 public:
  static constexpr uintmax_t kMaxFileBytes = uintmax_t(1) << 30;  // larger than any public book
  // Reads a .bin file. On a missing, truncated or unsorted file, one that is not a regular file
  // or is larger than kMaxFileBytes, returns the reason and leaves the book as it was.
  std::optional<std::string> load(const std::string& path);
  // Reads a .bin image from memory (same checks as load).
  std::optional<std::string> load_bytes(const std::string& bytes);
  void clear() { entries_.clear(); }
  bool empty() const { return entries_.empty(); }
  size_t size() const { return entries_.size(); }

  // The legal book moves of pos with their weights, heaviest first; entries naming an
  // illegal move are skipped.
  std::vector<BookMove> moves(const core::Position& pos) const;
  // Picks a book move: variety 0 always plays the heaviest, 100 picks in proportion to the
  // weights, values between sharpen the weights (weight^(100/variety)). Move::none() if the
  // position is not in the book.
  core::Move choose(const core::Position& pos, int variety, std::mt19937_64& rng) const;

 private:
  std::vector<Entry> entries_;
};

}  // namespace vblitz::book
